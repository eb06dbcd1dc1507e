// The control-plane API as a team's pipeline calls it (curl's way: a bearer token, JSON or a
// tar.gz), for the specs that act as a team.

export const API = `http://127.0.0.1:${process.env.NETNET_CONTROL_PORT || 8070}`;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One call: `json` sent as JSON, `archive` as application/gzip; the answer's JSON body ({} when it
 * has none). `at`: another replica of the API than the one on NETNET_CONTROL_PORT.
 */
export async function apiCall(token: string, method: string, path: string, { json, archive, at = API }: { json?: unknown; archive?: Buffer; at?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  if (archive) headers['Content-Type'] = 'application/gzip';
  const response = await fetch(`${at}${path}`, { method, headers, body: archive ? new Uint8Array(archive) : json === undefined ? undefined : JSON.stringify(json) });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
}
