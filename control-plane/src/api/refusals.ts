// Calls the API refused (401: no valid token; 403: outside the token's scope), recorded in the
// store (refused_calls; docs/deploy.md, "Roles") with the token name tried — never its secret —
// and the caller's address, so an operator sees who knocks and with what.
import type http from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { messageOf } from '../errors.ts';
import type { Queryable } from '../store/database.ts';
import { insertRefusal } from '../store/tokens.ts';
import { clientAddress, type TrustedProxies } from '@netnet/server-kit';
import { tokenNameOf } from './tokens.ts';

const MAX_PATH = 300;
const MAX_REASON = 500;

/** Records a refused call; a store that cannot take it is logged, never the caller's problem. */
export async function recordRefusal(
  db: Queryable,
  req: http.IncomingMessage,
  { status, reason, trusted, log }: { status: 401 | 403; reason: string; trusted: TrustedProxies; log: FastifyBaseLogger },
): Promise<void> {
  const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const path = new URL(req.url ?? '/', 'http://api').pathname.slice(0, MAX_PATH);
  try {
    await insertRefusal(db, {
      status,
      tokenName: tokenNameOf(bearer),
      address: clientAddress(req, trusted),
      method: (req.method ?? '').slice(0, 16),
      path,
      reason: reason.slice(0, MAX_REASON),
    });
  } catch (error) {
    log.error({ status, method: req.method, path }, `a refused call was not recorded: ${messageOf(error)}`);
  }
}
