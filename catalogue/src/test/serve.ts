// Starts a real catalogue server on a free loopback port for a test file.
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { createLogger } from '@netnet/server-kit';
import { createCatalogueServer, type CatalogueServer, type CatalogueServerOptions } from '../server';

export interface Running {
  url: string;
  server: CatalogueServer;
  close: () => Promise<void>;
}

export async function serve(options: CatalogueServerOptions = {}): Promise<Running> {
  const logger = createLogger('catalogue', 'silent');
  const server = createCatalogueServer({ today: '2025-06-01', logger, ...options });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    // Closes every connection at once (forceCloseConnections).
    close: () => server.app.close(),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with exactly the headers given (fetch adds and decodes Accept-Encoding itself). */
export function raw(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function getJson<T = any>(url: string): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}
