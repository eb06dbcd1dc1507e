// jsdom has no fetch, Response or Headers: the smallest response-like the catalogue client reads.

export function fakeResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const lower: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: String(status),
    headers: { get: (name: string) => lower[name.toLowerCase()] ?? null },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    clone: () => fakeResponse(status, body, headers),
  } as unknown as Response;
}

/** How a real fetch fails when its caller gives up on it. */
export const abortError = (): Error => Object.assign(new Error('aborted'), { name: 'AbortError' });
