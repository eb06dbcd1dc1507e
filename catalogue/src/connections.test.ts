// One client cannot take the service's connections from everyone else (docs/architecture.md,
// "Limits"): its share per address, a deadline for a request's headers, a pipeline
// limit; and the service listens on this machine only unless HOST says otherwise.
import { connect, type Socket } from 'node:net';
import { clientKey } from '@netnet/server-kit';
import { raw, serve, type Running } from './test/serve';

const running: Running[] = [];
afterAll(async () => Promise.all(running.map((service) => service.close())));

async function start(connectionLimits = {}) {
  const service = await serve({ size: 50, seed: 1, connectionLimits });
  running.push(service);
  return { service, port: Number(new URL(service.url).port) };
}

/** A raw connection from `from`, open once this resolves. */
function openFrom(port: number, from: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    socket.on('error', () => {});
    socket.on('connect', () => resolve(socket));
  });
}

/** Resolves with what the server sent and how long it kept the socket once it closes it. */
function untilClosed(socket: Socket): Promise<{ got: string; ms: number }> {
  const started = Date.now();
  let got = '';
  socket.on('data', (chunk: Buffer) => (got += chunk.toString('latin1')));
  return new Promise((resolve) => {
    if (socket.destroyed) resolve({ got, ms: 0 });
    socket.on('close', () => resolve({ got, ms: Date.now() - started }));
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

it('closes a client’s connections past its share at once, and answers another client meanwhile', async () => {
  const { service, port } = await start({ connectionsPerClient: 2 });
  const held = [await openFrom(port, '127.0.0.2'), await openFrom(port, '127.0.0.2')];
  try {
    await settle();
    const third = await openFrom(port, '127.0.0.2');
    const { ms } = await untilClosed(third);
    console.log(`a connection past the share closed after ${ms} ms (bound 1000 ms)`);
    expect(ms).toBeLessThan(1_000);
    expect((await raw(`${service.url}/3/genre/movie/list`)).status).toBe(200);
  } finally {
    held.forEach((socket) => socket.destroy());
  }
});

it('closes a connection that sends nothing within 2 s, without an answer', async () => {
  const { port } = await start();
  const { got, ms } = await untilClosed(await openFrom(port, '127.0.0.1'));
  expect(got).toBe('');
  console.log(`a silent connection closed after ${ms} ms (bound 2000 ms)`);
  expect(ms).toBeLessThan(2_000);
});

it('answers 408 to a connection that begins a request and never finishes its headers', async () => {
  const { port } = await start();
  const socket = await openFrom(port, '127.0.0.1');
  const closed = untilClosed(socket);
  socket.write('GET /3/genre/movie/list HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  const { got, ms } = await closed;
  expect(got).toMatch(/^HTTP\/1\.1 408/);
  console.log(`unfinished headers answered 408 and closed after ${ms} ms (bound 2000 ms)`);
  expect(ms).toBeLessThan(2_000);
});

it('closes a connection that pipelines past the limit', async () => {
  const { port } = await start({ pipelinedRequests: 4 });
  const socket = await openFrom(port, '127.0.0.1');
  const closed = untilClosed(socket);
  socket.write('GET /3/genre/movie/list HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(40));
  const { got } = await closed;
  expect(got.match(/HTTP\/1\.1 200/g)?.length ?? 0).toBeLessThan(40);
});

it('counts an IPv6 client by its /64', () => {
  expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2::ffff'));
  expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  expect(clientKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
});

describe('the entry point', () => {
  const listen = jest.fn();
  beforeEach(() => {
    jest.resetModules();
    listen.mockReset();
    listen.mockResolvedValue('http://127.0.0.1:7171');
    const app = { listen, server: { address: () => ({ port: 7171 }) } };
    jest.doMock('./server', () => ({ DEFAULT_SIZE: 10, createCatalogueServer: () => ({ app, catalogueInfo: { mode: 'embedded', titles: 10 } }) }));
    jest.spyOn(process, 'once').mockImplementation(() => process);
  });
  const saved = { HOST: process.env.HOST, PORT: process.env.PORT };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('listens on 127.0.0.1 when HOST is unset, and where HOST says otherwise', async () => {
    delete process.env.HOST;
    process.env.PORT = '7171';
    await jest.isolateModulesAsync(async () => {
      await import('./main');
    });
    expect(listen).toHaveBeenCalledWith({ port: 7171, host: '127.0.0.1' });
    process.env.HOST = '0.0.0.0';
    await jest.isolateModulesAsync(async () => {
      await import('./main');
    });
    expect(listen).toHaveBeenLastCalledWith({ port: 7171, host: '0.0.0.0' });
  });
});
