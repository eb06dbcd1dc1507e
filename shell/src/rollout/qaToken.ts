// A QA token (`?qa-token=…`, made by `npm run qa-token`) lets this tab pin versions in a production
// environment: the server that builds /remotes.json checks its signature and lists pinnable
// releases only then. The shell never sees the secret; it keeps the token for this tab only
// (sessionStorage) and sends it as a header, not in a URL.
export const QA_TOKEN_PARAM = 'qa-token';
export const QA_TOKEN_HEADER = 'X-Netnet-QA-Token';
const STORAGE_KEY = 'netnet:qa-token';
const TOKEN = /^\d{10}\.[A-Za-z0-9_-]{43}$/;

/** The token from this page's address (kept for the tab), or the one kept earlier in this tab. */
export function qaToken(search = window.location.search): string | null {
  const fromUrl = new URLSearchParams(search).get(QA_TOKEN_PARAM);
  try {
    if (fromUrl !== null && TOKEN.test(fromUrl)) sessionStorage.setItem(STORAGE_KEY, fromUrl);
    const kept = sessionStorage.getItem(STORAGE_KEY);
    return kept && TOKEN.test(kept) ? kept : null;
  } catch {
    return fromUrl !== null && TOKEN.test(fromUrl) ? fromUrl : null;
  }
}

/** Headers for the request of /remotes.json. */
export function qaTokenHeaders(search?: string): Record<string, string> {
  const token = qaToken(search);
  return token ? { [QA_TOKEN_HEADER]: token } : {};
}
