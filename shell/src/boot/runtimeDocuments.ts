// The two documents the shell reads at boot, requested by the entry script itself: they then
// travel alongside the app's own chunks instead of one round trip after them.
// A QA token travels in its HttpOnly cookie (docs/releases.md, "QA pins"): nothing to add here.
const request = (url: string) => fetch(url, { cache: 'no-cache' });

let early: { config?: Promise<Response>; remotes?: Promise<Response> } = {};

export function requestRuntimeDocuments(): void {
  early = { config: request('/config.json'), remotes: request('/remotes.json') };
  // A failure is read (and shown) by boot; unread, it must not count as unhandled.
  Object.values(early).forEach((response) => response?.catch(() => {}));
}

/** The early response, once; later boots (tests, retries) fetch afresh. */
export function takeRuntimeDocument(name: 'config' | 'remotes'): Promise<Response> | undefined {
  const response = early[name];
  early[name] = undefined;
  return response;
}
