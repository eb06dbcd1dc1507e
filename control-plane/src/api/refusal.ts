// How the API says no: an ApiError carries its status, and statusOf gives every other error its own
// (a refused upload, a lost race, a rollout refusal, one of Fastify's own) or 500.
import { DeployError } from '../errors.ts';
import { Conflict } from '../store/rollouts.ts';

/** The headers of every JSON answer of the API. */
export const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** An answer other than 200: its status and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const statusField = (error: unknown): unknown => (error !== null && typeof error === 'object' && 'status' in error ? error.status : undefined);

/** The status a thrown error is answered with. */
export function statusOf(error: unknown): number {
  if (error instanceof ApiError) return error.status;
  const status = statusField(error);
  // An UploadRefused (releases/verify.ts) and a console refusal say their own: 400, 409, 413, 415 or 422.
  if (error instanceof DeployError && typeof status === 'number' && status >= 400 && status < 500) return status;
  if (error instanceof Conflict) return 409;
  // The command's own refusal (not published, no canary, the compatibility gate…): the CLI's message, as 422.
  if (error instanceof DeployError) return 422;
  // Fastify's own refusals (a body over its limit, a media type no parser takes, a malformed URL, a failed schema).
  const fastifyStatus = error !== null && typeof error === 'object' && 'statusCode' in error ? error.statusCode : undefined;
  if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) return fastifyStatus;
  return 500;
}
