// The release console's part of the control-plane API (docs/releases.md, "A release owner's day in
// the console"): its page and bundle under /console/, its session (sign in with a link, who am I,
// sign out), the views it reads and the stream of changes. Its changes themselves go through the
// API's /v1 calls with the session cookie in place of a bearer token (consoleCaller), so they meet
// the same scope checks (403), compare-and-set (409), limits and audit trail as a pipeline's.
import { readFileSync, statSync } from 'node:fs';
import type http from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeployError, messageOf } from '../../errors.ts';
import { site } from '../../site.ts';
import type { Database } from '../../store/database.ts';
import { environmentsWithMaps } from '../../store/consoleQueries.ts';
import { allows, type Caller } from '../tokens.ts';
import type { ConsoleEvents } from './events.ts';
import { csrfProblem, endSession, exchangeLink, sessionCookie, sessionOf, setCookie } from './sessions.ts';
import { audit, overview, preview, remoteView } from './views.ts';

/** A refusal with its status, answered by the API's error handler (server.ts, statusOf). */
export class ConsoleRefusal extends DeployError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const DIST = fileURLToPath(new URL('../../../../console/dist/', import.meta.url));

/**
 * The console page's policy: its own scripts and styles only, nothing inline, no frames around it
 * (clickjacking), no form or base pointing elsewhere; it talks to its own origin only.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...SECURITY_HEADERS, ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

/**
 * A file of the console's build: index.html for /console/, hashed files for a year, brotli when the
 * browser takes it. `session`: the signed-in person's, written into the page as a JSON data block
 * (not a script: the policy runs none inline), so the first view needs no round trip to ask who.
 */
function serveFile(req: http.IncomingMessage, res: http.ServerResponse, path: string, session: unknown = null) {
  const relative = path === '/console/' ? 'index.html' : path.slice('/console/'.length);
  const file = normalize(join(DIST, relative));
  if (!file.startsWith(DIST) || relative.includes(`..${sep}`) || relative.startsWith('.')) throw new ConsoleRefusal(404, `no such file: ${path}`);
  const type = TYPES[extname(file)];
  let size: number;
  try {
    size = statSync(file).isFile() ? statSync(file).size : -1;
  } catch {
    size = -1;
  }
  if (!type || size < 0) {
    if (relative === 'index.html') throw new ConsoleRefusal(503, 'the console is not built: run `node scripts/build.mjs` (npm start builds it).');
    throw new ConsoleRefusal(404, `no such file: ${path}`);
  }
  const brotli = /\bbr\b/.test(String(req.headers['accept-encoding'] ?? '')) && relative !== 'index.html';
  let body = readFileSync(file);
  if (relative === 'index.html' && session) {
    const data = JSON.stringify(session).replace(/</g, '\\u003c');
    body = Buffer.from(body.toString('utf8').replace('</body>', `<script type="application/json" id="console-session">${data}</script></body>`));
  }
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': type,
    'Cache-Control': relative === 'index.html' ? 'no-store' : 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
    ...SECURITY_HEADERS,
  };
  if (brotli) {
    try {
      body = readFileSync(`${file}.br`);
      headers['Content-Encoding'] = 'br';
    } catch {
      // no compressed copy: the file as it is
    }
  }
  res.writeHead(200, { ...headers, 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function smallJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new ConsoleRefusal(415, 'send the body as application/json.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4096) throw new ConsoleRefusal(413, 'this body may hold at most 4096 bytes.');
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new ConsoleRefusal(400, 'the body must be a JSON object.');
}

/** Whether the console is reached over HTTPS (directly, or through a proxy that says so). */
const secure = (req: http.IncomingMessage) => req.headers['x-forwarded-proto'] === 'https' || ('encrypted' in req.socket && req.socket.encrypted === true);

/**
 * The caller a console session stands for (the cookie), for the API's own calls; null without a
 * live session. A change (any method but GET and HEAD) also needs the session's CSRF token and, if
 * the browser sent an Origin, this origin (403 otherwise).
 */
export async function consoleCaller(req: http.IncomingMessage, db: Database['pool']): Promise<Caller | null> {
  const cookie = sessionCookie(req);
  if (!cookie) return null;
  const session = await sessionOf(db, cookie);
  if (!session) return null;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const problem = csrfProblem(req, session);
    if (problem) throw new ConsoleRefusal(403, problem);
  }
  return session.caller;
}

const ENVIRONMENT = '([a-z0-9][a-z0-9-]{0,39})';

export interface ConsoleContext {
  database: Database;
  env: NodeJS.ProcessEnv;
  events: ConsoleEvents;
}

/** Answers a request under /console; false for any other path (the API's own calls). */
export async function answerConsole(req: http.IncomingMessage, res: http.ServerResponse, path: string, context: ConsoleContext): Promise<boolean> {
  if (path === '/console') {
    res.writeHead(308, { Location: '/console/', ...SECURITY_HEADERS });
    res.end();
    return true;
  }
  if (!path.startsWith('/console/')) return false;
  if (!path.startsWith('/console/api/')) {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ConsoleRefusal(405, `${req.method} is not a method of ${path}.`);
    const session = path === '/console/' ? await sessionOf(context.database.pool, sessionCookie(req)) : null;
    serveFile(req, res, path, session ? await sessionJson(context.database.pool, session) : null);
    return true;
  }
  const db = context.database.pool;
  const route = path.slice('/console/api'.length);

  if (route === '/session') {
    if (req.method === 'POST') {
      // Signing in: the link's secret for a session. Only from the console's own page.
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`) throw new ConsoleRefusal(403, 'sign in from the console\'s own page.');
      const { link } = await smallJson(req);
      const made = await exchangeLink(db, link);
      if (!made) throw new ConsoleRefusal(401, 'this sign-in link is unknown, used already or expired, or its token was revoked: ask for a new one (npm run tokens -- link <name>).');
      sendJson(res, 200, await sessionJson(db, made.session), { 'Set-Cookie': setCookie(made.cookie, { secure: secure(req) }) });
      return true;
    }
    if (req.method === 'DELETE') {
      const caller = await consoleCaller(req, db);
      if (caller) await endSession(db, sessionCookie(req));
      sendJson(res, 200, { signedOut: true }, { 'Set-Cookie': setCookie(null, { secure: secure(req) }) });
      return true;
    }
    if (req.method !== 'GET') throw new ConsoleRefusal(405, `${req.method} is not a method of ${path}.`);
    const session = await sessionOf(db, sessionCookie(req));
    if (!session) throw new ConsoleRefusal(401, 'not signed in: open the sign-in link you were given.');
    sendJson(res, 200, await sessionJson(db, session));
    return true;
  }

  const session = await sessionOf(db, sessionCookie(req));
  if (!session) throw new ConsoleRefusal(401, 'not signed in, or the session ended (expired, signed out or its token revoked): open a new sign-in link.');
  if (req.method !== 'GET') throw new ConsoleRefusal(405, `${req.method} is not a method of ${path}: the console changes things through the API's /v1 calls.`);
  const caller = session.caller;
  const match = new RegExp(`^/environments/${ENVIRONMENT}/(overview|audit|events|remotes/([^/]+)(?:/(preview))?)$`).exec(route);
  if (!match) throw new ConsoleRefusal(404, `no such console call: ${path}`);
  const [, environment = '', what = '', rawRemote, previewing] = match;
  if (!allows(caller, 'status', { environment })) throw new ConsoleRefusal(403, `${caller.name} may not see ${environment} (it needs "status" there).`);
  const query = new URL(req.url ?? '/', 'http://console').searchParams;
  if (what === 'events') {
    context.events.subscribe(environment, req, res);
    return true;
  }
  if (what === 'overview') {
    sendJson(res, 200, await overview(db, environment, caller, context.env));
    return true;
  }
  if (what === 'audit') {
    const remote = query.get('remote') || undefined;
    if (remote !== undefined && !site.remotes.includes(remote)) throw new ConsoleRefusal(404, `Unknown remote "${remote}".`);
    sendJson(res, 200, await audit(db, environment, { remote, actor: query.get('actor') || undefined }));
    return true;
  }
  let remote: string;
  try {
    remote = decodeURIComponent(rawRemote ?? '');
  } catch (error) {
    throw new ConsoleRefusal(400, messageOf(error));
  }
  if (!site.remotes.includes(remote)) throw new ConsoleRefusal(404, `Unknown remote "${remote}". Known remotes: ${site.remotes.join(', ')}.`);
  if (previewing) {
    const percentText = query.get('percent');
    const percent = percentText === null ? undefined : Number(percentText);
    if (percent !== undefined && !(Number.isInteger(percent) && percent >= 0 && percent <= 100)) throw new ConsoleRefusal(400, 'percent is a whole number from 0 to 100.');
    sendJson(res, 200, await preview(db, environment, remote, { command: query.get('command') ?? '', version: query.get('version') ?? undefined, percent }, context.env));
    return true;
  }
  sendJson(res, 200, await remoteView(db, environment, remote, caller, context.env));
  return true;
}

/** Who is signed in, their scope, the CSRF token for changes and the environments they can open. */
async function sessionJson(db: Database['pool'], { caller, csrf, expiresAt }: { caller: Caller; csrf: string; expiresAt: Date }) {
  const environments = caller.environments.includes('*') ? await environmentsWithMaps(db) : caller.environments;
  return {
    person: caller.name,
    actor: caller.actor,
    scope: { remotes: caller.remotes, environments: caller.environments, actions: caller.actions },
    csrf,
    expiresAt: expiresAt.toISOString(),
    environments: environments.length ? environments : ['local'],
  };
}
