// The release console's part of the control-plane API (docs/releases.md, "A release owner's day in
// the console"): its page and bundle under /console/, its session (sign in with a link, who am I,
// sign out), the views it reads and the stream of changes. Its changes themselves go through the
// API's /v1 calls with the session cookie in place of a bearer token (consoleCaller), so they meet
// the same scope checks (403), compare-and-set (409), limits and audit trail as a pipeline's.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import type http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extname, join, normalize, sep } from 'node:path';
import { DeployError } from '../../errors.ts';
import site from '@netnet/site';
import type { Database } from '../../store/database.ts';
import { environmentsWithMaps } from '../../store/consoleQueries.ts';
import { allows, type Caller } from '../tokens.ts';
import type { ApiContext } from '../server.ts';
import { CONSOLE_DIST, pageWith, type Boot } from './firstView.ts';
import { csrfProblem, endSession, exchangeLink, sessionCookie, sessionOf, setCookie, type Session } from './sessions.ts';
import { audit, overview, preview, remoteView } from './views.ts';

/** A refusal with its status, answered by the API's error handler (../refusal.ts, statusOf). */
export class ConsoleRefusal extends DeployError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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

/**
 * A file of the console's build: index.html for /console/, hashed files for a year, brotli when the
 * browser takes it. `boot`: what the page carries for its first view (./firstView.ts).
 */
function serveFile(request: FastifyRequest, reply: FastifyReply, path: string, boot: Boot | null = null) {
  const relative = path === '/console/' ? 'index.html' : path.slice('/console/'.length);
  const file = normalize(join(CONSOLE_DIST, relative));
  if (!file.startsWith(CONSOLE_DIST) || relative.includes(`..${sep}`) || relative.startsWith('.') || relative.startsWith('server/')) throw new ConsoleRefusal(404, `no such file: ${path}`);
  const type = TYPES[extname(file)];
  let stats: Stats | null;
  try {
    stats = statSync(file);
    if (!stats.isFile()) stats = null;
  } catch {
    stats = null;
  }
  if (!type || !stats) {
    if (relative === 'index.html') throw new ConsoleRefusal(503, 'the console is not built: run `node scripts/build.mjs` (npm start builds it).');
    throw new ConsoleRefusal(404, `no such file: ${path}`);
  }
  const brotli = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
  const page = relative === 'index.html' ? indexPage(file, stats) : null;
  let body = page ? page.body : readFileSync(file);
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': type,
    'Cache-Control': relative === 'index.html' ? 'no-store' : 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
  };
  if (page) {
    // The browser starts on the style sheet and the script when the answer's headers come, before its page is read.
    if (page.preloads) headers.Link = page.preloads;
    if (boot) body = Buffer.from(pageWith(page.html, boot, request.log));
    // The page is made per person (tens of KB with its first view): compressed as it goes, quickly.
    if (brotli) {
      body = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      headers['Content-Encoding'] = 'br';
    }
  } else if (brotli) {
    try {
      body = readFileSync(`${file}.br`);
      headers['Content-Encoding'] = 'br';
    } catch {
      // no compressed copy: the file as it is
    }
  }
  return reply.code(200).headers({ ...headers, 'Content-Length': body.length }).send(body);
}

/** index.html as last read, kept while the file is unchanged (a rebuild replaces it): every console page starts from it. */
let index: { file: string; mtimeMs: number; size: number; body: Buffer; html: string; preloads: string } | null = null;
function indexPage(file: string, stats: Stats) {
  if (index?.file !== file || index.mtimeMs !== stats.mtimeMs || index.size !== stats.size) {
    const body = readFileSync(file);
    const html = body.toString('utf8');
    index = { file, mtimeMs: stats.mtimeMs, size: stats.size, body, html, preloads: preloadsOf(html) };
  }
  return index;
}

/** The page's own style sheets and scripts, as a Link header of preloads. */
function preloadsOf(html: string) {
  const style = [...html.matchAll(/<link\b[^>]*\bhref="?(\/console\/[\w.-]+\.css)"?/g)].map(([, href]) => `<${href}>; rel=preload; as=style`);
  const script = [...html.matchAll(/<script\b[^>]*\bsrc="?(\/console\/[\w.-]+\.js)"?/g)].map(([, src]) => `<${src}>; rel=preload; as=script`);
  return [...style, ...script].join(', ');
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

const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;
const EVERY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

const pathOf = (request: FastifyRequest) => new URL(request.url, 'http://console').pathname;
const queryOf = (request: FastifyRequest) => new URL(request.url, 'http://console').searchParams;

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session a view is read for, once signedIn knows it. */
    consoleSession: Session | null;
  }
}

/**
 * The console's page, session and views, on their own context of the API (`app`): a small JSON
 * parser of their own, compact JSON answers, and the page's security headers on every answer.
 */
export async function consoleRoutes(app: FastifyInstance, context: ApiContext): Promise<void> {
  const db = context.database.pool;
  app.decorateRequest('consoleSession', null);
  // The console's own calls are its page's business, not part of the API's description.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 4096 }, (_request, text, done) => {
    try {
      const value: unknown = JSON.parse(text as string);
      if (value && typeof value === 'object' && !Array.isArray(value)) return done(null, value);
    } catch {
      // answered below
    }
    done(new ConsoleRefusal(400, 'the body must be a JSON object.'), undefined);
  });
  app.setReplySerializer((body) => `${JSON.stringify(body)}\n`);
  // A refusal is answered by the API's error handler, as any other call's.
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode < 400) reply.headers(SECURITY_HEADERS);
  });
  const sendJson = (reply: FastifyReply, body: unknown) => reply.headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).send(body);

  app.route({ method: EVERY_METHOD, url: '/console', handler: async (_request, reply) => reply.code(308).header('Location', '/console/').send() });

  // The page and its files.
  const files = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new ConsoleRefusal(405, `${request.method} is not a method of ${path}.`);
    return serveFile(request, reply, path, path === '/console/' ? await bootOf(request) : null);
  };
  /** The page's session and its first view: every remote of the person's first environment, when the token may see it. */
  const bootOf = async (request: FastifyRequest): Promise<Boot> => {
    const session = await sessionOf(db, sessionCookie(request.raw));
    if (!session) return { session: null, first: null };
    const json = await sessionJson(db, session);
    const environment = json.environments[0];
    if (environment === undefined || !allows(session.caller, 'status', { environment })) return { session: json, first: null };
    try {
      return { session: json, first: { environment, overview: await overview(db, environment, session.caller, context.config) } };
    } catch (error) {
      // The page still goes: the browser asks for the view itself and says what failed.
      request.log.warn({ err: error }, 'the console\'s first view could not be read for its page');
      return { session: json, first: null };
    }
  };
  app.route({ method: EVERY_METHOD, url: '/console/', handler: files });
  app.route({ method: EVERY_METHOD, url: '/console/*', handler: files });

  // Signing in: the link's secret for a session. Only from the console's own page, asked before its body is read.
  app.route({
    method: 'POST',
    url: '/console/api/session',
    onRequest: async (request) => {
      const { origin, host } = request.headers;
      if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) throw new ConsoleRefusal(403, 'sign in from the console\'s own page.');
    },
    handler: async (request, reply) => {
      if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) throw new ConsoleRefusal(415, 'send the body as application/json.');
      const made = await exchangeLink(db, (request.body as { link?: unknown } | undefined)?.link);
      if (!made) throw new ConsoleRefusal(401, 'this sign-in link is unknown, used already or expired, or its token was revoked: ask for a new one (npm run tokens -- link <name>).');
      reply.header('Set-Cookie', setCookie(made.cookie, { secure: secure(request.raw) }));
      return sendJson(reply, await sessionJson(db, made.session));
    },
  });
  // Signing out.
  app.route({
    method: 'DELETE',
    url: '/console/api/session',
    handler: async (request, reply) => {
      const caller = await consoleCaller(request.raw, db);
      if (caller) await endSession(db, sessionCookie(request.raw));
      reply.header('Set-Cookie', setCookie(null, { secure: secure(request.raw) }));
      return sendJson(reply, { signedOut: true });
    },
  });
  // Who am I.
  app.route({
    method: EVERY_METHOD.filter((method) => method !== 'POST' && method !== 'DELETE'),
    url: '/console/api/session',
    handler: async (request, reply) => {
      if (request.method !== 'GET') throw new ConsoleRefusal(405, `${request.method} is not a method of ${pathOf(request)}.`);
      const session = await sessionOf(db, sessionCookie(request.raw));
      if (!session) throw new ConsoleRefusal(401, 'not signed in: open the sign-in link you were given.');
      return sendJson(reply, await sessionJson(db, session));
    },
  });

  // The views: a live session (401), read only (405), an environment its token may see (403).
  const signedIn = async (request: FastifyRequest) => {
    const path = pathOf(request);
    const session = await sessionOf(db, sessionCookie(request.raw));
    if (!session) throw new ConsoleRefusal(401, 'not signed in, or the session ended (expired, signed out or its token revoked): open a new sign-in link.');
    if (request.method !== 'GET') throw new ConsoleRefusal(405, `${request.method} is not a method of ${path}: the console changes things through the API's /v1 calls.`);
    const { environment } = request.params as { environment?: string };
    if (environment === undefined || !ENVIRONMENT.test(environment)) throw new ConsoleRefusal(404, `no such console call: ${path}`);
    if (!allows(session.caller, 'status', { environment })) throw new ConsoleRefusal(403, `${session.caller.name} may not see ${environment} (it needs "status" there).`);
    request.consoleSession = session;
  };
  const view = (url: string, answer: (request: FastifyRequest, reply: FastifyReply, where: { environment: string; remote: string }) => Promise<unknown>) =>
    app.route({
      method: EVERY_METHOD,
      url: `/console/api/environments/:environment${url}`,
      onRequest: signedIn,
      handler: async (request, reply) => {
        const { environment, remote = '' } = request.params as { environment: string; remote?: string };
        if (url.includes(':remote') && !site.remotes.includes(remote)) throw new ConsoleRefusal(404, `Unknown remote "${remote}". Known remotes: ${site.remotes.join(', ')}.`);
        return answer(request, reply, { environment, remote });
      },
    });
  const callerOf = (request: FastifyRequest) => request.consoleSession!.caller;

  view('/events', async (request, reply, { environment }) => {
    // The stream is written as it comes: Fastify hands the response over.
    reply.hijack();
    context.events.subscribe(environment, request.raw, reply.raw);
  });
  view('/overview', async (request, reply, { environment }) => sendJson(reply, await overview(db, environment, callerOf(request), context.config)));
  view('/audit', async (request, reply, { environment }) => {
    const query = queryOf(request);
    const remote = query.get('remote') || undefined;
    if (remote !== undefined && !site.remotes.includes(remote)) throw new ConsoleRefusal(404, `Unknown remote "${remote}".`);
    return sendJson(reply, await audit(db, environment, { remote, actor: query.get('actor') || undefined }));
  });
  view('/remotes/:remote', async (request, reply, { environment, remote }) => sendJson(reply, await remoteView(db, environment, remote, callerOf(request), context.config)));
  view('/remotes/:remote/preview', async (request, reply, { environment, remote }) => {
    const query = queryOf(request);
    const percentText = query.get('percent');
    const percent = percentText === null ? undefined : Number(percentText);
    if (percent !== undefined && !(Number.isInteger(percent) && percent >= 0 && percent <= 100)) throw new ConsoleRefusal(400, 'percent is a whole number from 0 to 100.');
    return sendJson(reply, await preview(db, environment, remote, { command: query.get('command') ?? '', version: query.get('version') ?? undefined, percent }, context.config));
  });

  // Any other path of the console's API: a session first (401), then 405 or 404.
  app.route({
    method: EVERY_METHOD,
    url: '/console/api/*',
    handler: async (request) => {
      const path = pathOf(request);
      const session = await sessionOf(db, sessionCookie(request.raw));
      if (!session) throw new ConsoleRefusal(401, 'not signed in, or the session ended (expired, signed out or its token revoked): open a new sign-in link.');
      if (request.method !== 'GET') throw new ConsoleRefusal(405, `${request.method} is not a method of ${path}: the console changes things through the API's /v1 calls.`);
      throw new ConsoleRefusal(404, `no such console call: ${path}`);
    },
  });
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
