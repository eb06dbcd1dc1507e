// The release and rollout commands as clients of the control-plane API (docs/deploy.md, "What a
// team's pipeline runs"): with NETNET_CONTROL_URL and NETNET_TOKEN set they send their change to
// the API, which checks the token's scope and writes the store; with neither they work on this
// checkout's store as before. One set without the other is a mistake, refused rather than guessed.
import { variable } from '@netnet/server-kit';
import { z } from 'zod';
import { DeployError, messageOf } from '../errors.ts';

/** Read by the release and rollout commands. */
export const API_TARGET_VARIABLES = {
  controlUrl: variable(
    'NETNET_CONTROL_URL',
    z.url({ protocol: /^https?$/, error: 'not an http(s) URL (like http://127.0.0.1:8070)' }).optional(),
    'with NETNET_TOKEN: the control-plane API release and rollout go through (docs/pipelines.md); neither: they use the store directly; one alone is refused',
  ),
  token: variable('NETNET_TOKEN', z.string().optional(), 'with NETNET_CONTROL_URL: the API token the commands call it with (npm run tokens -- create)'),
};

export interface ApiTarget {
  url: string;
  token: string;
}

/** Where the API is and the token to call it with (a command's API_TARGET_VARIABLES), or null: work on this checkout's store. */
export function apiTarget({ controlUrl: url, token }: { controlUrl?: string | undefined; token?: string | undefined }): ApiTarget | null {
  if (!url && !token) return null;
  if (!url) throw new DeployError('NETNET_TOKEN is set but NETNET_CONTROL_URL is not: set both to go through the control-plane API, or neither to use this checkout\'s store.');
  if (!token) throw new DeployError(`NETNET_CONTROL_URL is set (${url}) but NETNET_TOKEN is not: the API takes no call without a token (npm run tokens -- create).`);
  return { url: url.replace(/\/+$/, ''), token };
}

/** One call; its JSON answer, or a DeployError with the API's own message and status. */
export async function callApi<T>(
  target: ApiTarget,
  method: string,
  path: string,
  { json, archive, contentType = 'application/gzip' }: { json?: unknown; archive?: Buffer; contentType?: string } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${target.token}`, Accept: 'application/json' };
  let body: string | Buffer | undefined;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (archive) {
    headers['Content-Type'] = contentType;
    body = archive;
  }
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, { method, headers, body });
  } catch (error) {
    const cause = error instanceof Error && error.cause ? messageOf(error.cause) : messageOf(error);
    throw new DeployError(`the control-plane API at ${target.url} cannot be reached (${cause}).`);
  }
  const text = await response.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new DeployError(`the control-plane API at ${target.url} answered ${response.status} with something other than JSON: ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    const message = answer !== null && typeof answer === 'object' && 'error' in answer ? String(answer.error) : text.slice(0, 200);
    throw new DeployError(`${message} (the control-plane API answered ${response.status})`);
  }
  return { status: response.status, body: answer as T };
}
