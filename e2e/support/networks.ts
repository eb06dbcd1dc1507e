import net from 'node:net';

// Browsers from client networks of their own. Chromium connects from 127.0.0.1; a forwarder on a
// port of its own passes each of its connections on to the site from 127.<n>.0.2, so the site sees
// that browser in the network 127.<n>.0.0/24 (release health counts evidence by network:
// docs/release-health.md). Cookies ignore ports, and each visitor has a context
// of its own, so a forwarder's origin (http://localhost:<its port>) is as good as the site's.

export interface NetworkForwarder {
  /** The origin to open pages at: the site as network 127.<n>.0.0/24 reaches it. */
  url: string;
  close(): Promise<void>;
}

/** A forwarder to the site on `sitePort` whose connections come from 127.<network>.0.2. */
export async function forwardFromNetwork(sitePort: number, network: number): Promise<NetworkForwarder> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    // The site's end is opened with the first bytes the browser sends, not before: Chromium opens
    // spare connections it may never use, and the site closes a silent one after 1.5 s, which a
    // forwarder would see only as its upstream going away under a request it has just passed on.
    client.once('data', (first: Buffer) => {
      const upstream = net.connect({ host: '127.0.0.1', port: sitePort, localAddress: `127.${network}.0.2` });
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.write(first);
      client.pipe(upstream).pipe(client);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
