// The console's calls to the control-plane API, on its own origin: the session cookie goes by
// itself; every change also carries the session's CSRF token (the API refuses a change without it).

/** A call that did not succeed: its HTTP status (0: the API did not answer) and the API's message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrf = '';

export function setCsrfToken(token: string) {
  csrf = token;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(method === 'GET' ? {} : { 'X-Netnet-CSRF': csrf }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiFailure(0, 'The control-plane API does not answer.');
  }
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    // not JSON: the status says enough
  }
  if (!response.ok) {
    const message = json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : `The API answered ${response.status}.`;
    throw new ApiFailure(response.status, message);
  }
  return json as T;
}

export const get = <T>(path: string) => call<T>('GET', path);

export const envPath = (environment: string) => `/console/api/environments/${encodeURIComponent(environment)}`;
export const v1Path = (environment: string) => `/v1/environments/${encodeURIComponent(environment)}`;
