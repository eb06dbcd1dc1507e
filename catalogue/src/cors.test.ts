import { originPolicy, parseList } from './cors';
import { raw, serve, type Running } from './test/serve';

describe('CORS', () => {
  let service: Running;
  beforeAll(async () => {
    service = await serve({ size: 100 });
  });
  afterAll(() => service.close());

  it.each(['http://localhost:3000', 'http://127.0.0.1:3001', 'http://[::1]:8080', 'https://localhost'])(
    'allows the localhost origin %s by default',
    async (origin) => {
      const res = await raw(`${service.url}/3/movie/popular`, { headers: { Origin: origin } });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers.vary).toContain('Origin');
      expect(res.headers['access-control-expose-headers']).toContain('Retry-After');
    },
  );

  it.each(['https://evil.example', 'http://localhost.evil.example', 'null'])('does not allow %s', async (origin) => {
    const res = await raw(`${service.url}/3/movie/popular`, { headers: { Origin: origin } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight', async () => {
    const res = await raw(`${service.url}/3/movie/604`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-request-id' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-allow-methods']).toContain('GET');
    expect(res.headers['access-control-allow-headers']).toBe('x-request-id');
  });

  it('a preflight from a foreign origin gets no permission', async () => {
    const res = await raw(`${service.url}/3/movie/604`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('an error still carries CORS headers, so the browser can read it', async () => {
    const res = await raw(`${service.url}/3/movie/abc`, { headers: { Origin: 'http://localhost:3000' } });
    expect(res.status).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('a configured allow-list replaces the localhost default', async () => {
    const listed = await serve({ size: 100, allowedOrigins: parseList(' https://netnet.example , http://localhost:9000/ ') });
    try {
      const ok = await raw(`${listed.url}/3/movie/604`, { headers: { Origin: 'https://netnet.example' } });
      expect(ok.headers['access-control-allow-origin']).toBe('https://netnet.example');
      const trailing = await raw(`${listed.url}/3/movie/604`, { headers: { Origin: 'http://localhost:9000' } });
      expect(trailing.headers['access-control-allow-origin']).toBe('http://localhost:9000');
      const other = await raw(`${listed.url}/3/movie/604`, { headers: { Origin: 'http://localhost:3000' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await listed.close();
    }
  });

  it('* allows any origin; an empty list keeps the default', () => {
    expect(originPolicy(['*'])('https://anything.example')).toBe(true);
    expect(parseList(' , ')).toBeUndefined();
    expect(originPolicy(undefined)('http://localhost:1')).toBe(true);
  });
});
