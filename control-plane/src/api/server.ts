// The control-plane API (control-plane/openapi.yaml; docs/deploy.md, "What a team's pipeline
// runs"): HTTP + JSON, the one way a team's pipeline changes anything. Every call but the
// description itself carries a token (./tokens.ts) and is checked against its scope before
// anything is read or written: no token, an unknown, wrong or revoked one → 401; a remote,
// environment or action outside its scope → 403, nothing changed. Changes go through the same
// code as `npm run rollout` (deploy/rolloutChange.ts: compare-and-set, audit trail under
// `token:<name>`), so two conflicting changes at once end as they do there: one lands, the other
// gets 409. Uploads are verified and published by deploy/upload.ts.
//
// The same connection limits as the site's other Node servers (docs/limits.md),
// with room for an upload: its body may take a minute, but never stall for more than 10 s.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import { DeployError, messageOf } from '../errors.ts';
import { healthReport } from '../guard/status.ts';
import { remoteMapFor } from '../rollouts/remoteMap.ts';
import { parsePercent } from '../rollouts/commands.ts';
import { changeRollout, type RolloutCommand } from '../rollouts/change.ts';
import { deployDir } from '../releases/originFolder.ts';
import { assertVersion } from '../names.ts';
import { UPLOAD_LIMITS, type publishUpload } from '../releases/upload.ts';
import { site } from '../site.ts';
import type { Database } from '../store/database.ts';
import { listReleases } from '../store/releases.ts';
import { auditTrail, Conflict, emptyRollout, readRollout, updateRollout, type RemotePlan } from '../store/rollouts.ts';
import { clientKey, trustedProxiesFrom } from '@netnet/server-kit';
import { recordRefusal } from './refusals.ts';
import { consoleEvents, type ConsoleEvents } from './console/events.ts';
import { answerConsole, consoleCaller } from './console/routes.ts';
import { allows, authenticate, remotesIn, type Action, type Caller } from './tokens.ts';
import { createAuthBackoff } from './authBackoff.ts';

const MiB = 1024 * 1024;

/** The API's limits; see the comment at the top. */
export const API_LIMITS = Object.freeze({
  headersTimeout: 1_500,
  /** A whole request, body included: an 80 MiB archive at 1.4 MB/s. */
  requestTimeout: 60_000,
  /** A connection that sends nothing (a stalled upload) for this long is closed. */
  idleTimeout: 10_000,
  keepAliveTimeout: 5_000,
  /** A pipeline opens a few at a time; this leaves room for several behind one address. */
  connectionsPerClient: 16,
  /** Open connections in all; past it the client holding the most gives its oldest up to a newcomer. */
  maxConnections: 256,
  /** A JSON body (a rollout change). */
  jsonBytes: 16 * 1024,
  /** An upload as sent: the archive limit of deploy/archive.ts, refused from its Content-Length before a byte is read. */
  uploadBytes: UPLOAD_LIMITS.archiveBytes,
});

export type ApiLimits = Record<keyof typeof API_LIMITS, number>;

/** What publishes an upload: deploy/upload.ts's publishUpload, or a stand-in in tests. */
export type PublishUpload = typeof publishUpload;

export interface ApiOptions {
  database: Database;
  publish: PublishUpload;
  env?: NodeJS.ProcessEnv;
  limits?: Partial<ApiLimits>;
}

/** An answer other than 200: its status and message. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const OPENAPI = new URL('../../openapi.yaml', import.meta.url);
const ENVIRONMENT = '([a-z0-9][a-z0-9-]{0,39})';
const SEGMENT = '([^/]+)';

interface Route {
  method: string;
  path: RegExp;
  handle(call: Call, params: string[]): Promise<{ status?: number; body: unknown }>;
}

interface Call {
  req: http.IncomingMessage;
  caller: Caller;
  options: ApiOptions & { env: NodeJS.ProcessEnv; limits: ApiLimits; backoff: ReturnType<typeof createAuthBackoff>; events: ConsoleEvents };
  /** Refuses (403) unless the caller's token allows `action` there. */
  check(action: Action, where: { remote?: string | null; environment?: string | null }): void;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, `"${segment}" is not a valid path segment.`);
  }
};

function knownRemote(remote: string): string {
  if (!site.remotes.includes(remote)) throw new ApiError(404, `Unknown remote "${remote}". Known remotes: ${site.remotes.join(', ')}.`);
  return remote;
}

/** A JSON body of at most `limit` bytes, as an object. */
async function jsonBody(req: http.IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new ApiError(413, `a JSON body may hold at most ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, `a JSON body may hold at most ${limit} bytes.`);
    chunks.push(chunk);
  }
  if (size === 0) return {};
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new ApiError(415, 'send the body as application/json.');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ApiError(400, `the body is not JSON (${messageOf(error)}).`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, 'the body must be a JSON object.');
  return value as Record<string, unknown>;
}

function onlyFields(body: Record<string, unknown>, fields: string[]) {
  const stray = Object.keys(body).find((key) => !fields.includes(key));
  if (stray) throw new ApiError(400, `"${stray}" is not a field of this call (${fields.length ? fields.join(', ') : 'it takes none'}).`);
}

/** `expected`: what the caller last saw (a remote's plan, the pin policy); a change made since makes its call a 409. */
function optionalExpected(body: Record<string, unknown>): Record<string, unknown> | null | undefined {
  const value = body.expected;
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) throw new ApiError(400, '"expected" must be an object or null.');
  return value as Record<string, unknown> | null | undefined;
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value !== undefined && typeof value !== 'boolean') throw new ApiError(400, `"${field}" must be true or false.`);
  return value;
}

/** A change of one remote's rollout: stable, canary, promote or rollback. */
async function rolloutCall(call: Call, command: RolloutCommand, environment: string, rawRemote: string) {
  const remote = decoded(rawRemote);
  call.check(command, { remote, environment });
  knownRemote(remote);
  const body = await jsonBody(call.req, call.options.limits.jsonBytes);
  const fields = [
    ...{ stable: ['version', 'skipCompatibilityGate'], canary: ['version', 'percent', 'skipCompatibilityGate'], promote: ['skipCompatibilityGate'], rollback: [] }[command],
    'expected',
  ];
  onlyFields(body, fields);
  let version: string | undefined;
  if (command === 'stable' || command === 'canary') {
    if (typeof body.version !== 'string') throw new ApiError(400, `${command} needs "version", a published version like 1.4.0.`);
    version = body.version;
  }
  let percent: number | undefined;
  if (command === 'canary') {
    // The CLI's rule for --percent: a whole number 0–100, as a number or as the text typed.
    percent = parsePercent(typeof body.percent === 'number' && Number.isInteger(body.percent) ? String(body.percent) : body.percent);
  }
  const warnings: string[] = [];
  const written = await changeRollout(
    call.options.database.pool,
    environment,
    { command, remote, version, percent, skipGate: optionalBoolean(body, 'skipCompatibilityGate') === true, expected: optionalExpected(body) as RemotePlan | null | undefined },
    { actor: call.caller.actor, warn: (line) => warnings.push(line), env: call.options.env },
  );
  return { body: { environment, mapVersion: written.version, remote, plan: written.rollout.remotes[remote] ?? null, warnings } };
}

/** What `npm run rollout -- status` shows, for the remotes the token covers. */
async function statusCall(call: Call, environment: string) {
  call.check('status', { environment });
  const db = call.options.database.pool;
  const remotes = remotesIn(call.caller, site.remotes);
  const [{ version, rollout }, releases] = await Promise.all([readRollout(db, environment), listReleases(db)]);
  const health = await healthReport({ db, environment, rollout, remotes });
  const served = remoteMapFor(environment, { rollout, releases }, call.options.env);
  const changes = (await auditTrail(db, environment, 50)).filter((entry) => entry.remote !== null && remotes.includes(entry.remote)).slice(0, 10);
  return {
    body: {
      environment,
      mapVersion: version,
      pinPolicy: { production: rollout?.production === true, pinRolledBack: rollout?.pinRolledBack === true },
      health: health.header,
      remotes: Object.fromEntries(
        remotes.map((remote) => [
          remote,
          {
            plan: rollout?.remotes[remote] ?? null,
            served: served.remotes[remote],
            published: (releases.get(remote) ?? []).map((release) => release.version),
            health: health.byRemote.get(remote) ?? [],
            guardEvidence: health.evidence.get(remote) ?? null,
          },
        ]),
      ),
      changes: changes.map((entry) => ({ mapVersion: entry.map_version, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, remote: entry.remote })),
    },
  };
}

/** The QA pin policy of an environment: it concerns every remote, so it takes a token for all of them. */
async function pinPolicyCall(call: Call, environment: string) {
  call.check('pin', { remote: null, environment });
  const body = await jsonBody(call.req, call.options.limits.jsonBytes);
  onlyFields(body, ['production', 'pinRolledBack', 'expected']);
  const production = optionalBoolean(body, 'production');
  const pinRolledBack = optionalBoolean(body, 'pinRolledBack');
  const expected = optionalExpected(body);
  if (production === undefined && pinRolledBack === undefined) throw new ApiError(400, 'give "production", "pinRolledBack" or both.');
  const written = await updateRollout(
    call.options.database.pool,
    environment,
    (latest) => {
      const next = latest ?? emptyRollout();
      const seen = { production: next.production === true, pinRolledBack: next.pinRolledBack === true };
      if (expected && (expected.production !== seen.production || expected.pinRolledBack !== seen.pinRolledBack)) {
        throw new Conflict(`the pin policy of ${environment} was changed by someone else first (now production ${seen.production}, rolled-back pins ${seen.pinRolledBack}); nothing was changed.`);
      }
      if (production !== undefined) next.production = production;
      if (pinRolledBack !== undefined) next.pinRolledBack = pinRolledBack;
      return next;
    },
    { actor: call.caller.actor, action: 'pin' },
  );
  return { body: { environment, mapVersion: written.version, pinPolicy: { production: written.rollout.production === true, pinRolledBack: written.rollout.pinRolledBack === true } } };
}

/** A release uploaded as one tar archive (gzip or not), verified, then published and registered. */
async function publishCall(call: Call, rawRemote: string, rawVersion: string) {
  const remote = decoded(rawRemote);
  call.check('publish', { remote });
  knownRemote(remote);
  const version = decoded(rawVersion);
  try {
    assertVersion(version);
  } catch (error) {
    throw new ApiError(400, messageOf(error));
  }
  const declared = Number(call.req.headers['content-length'] ?? 0);
  const { uploadBytes } = call.options.limits;
  if (declared > uploadBytes) throw new ApiError(413, `the archive is larger than ${uploadBytes / MiB} MiB.`);
  const query = new URL(call.req.url ?? '/', 'http://api').searchParams;
  const browserOnly = query.get('browserOnly');
  if (browserOnly !== null && browserOnly !== 'true' && browserOnly !== 'false') throw new ApiError(400, 'browserOnly is true or false.');
  const result = await call.options.publish({
    remote,
    version,
    body: call.req,
    contentType: call.req.headers['content-type'],
    browserOnly: browserOnly === 'true',
    db: call.options.database,
    deployDir: deployDir(call.options.env),
    env: call.options.env,
    // Who published it, recorded with the registration (and so in the audit trail).
    publishedBy: call.caller.actor,
  });
  return { status: result.outcome === 'published' ? 201 : 200, body: result };
}

const ROUTES: Route[] = [
  { method: 'POST', path: new RegExp(`^/v1/remotes/${SEGMENT}/releases/${SEGMENT}$`), handle: (call, [remote = '', version = '']) => publishCall(call, remote, version) },
  { method: 'GET', path: new RegExp(`^/v1/environments/${ENVIRONMENT}/status$`), handle: (call, [environment = '']) => statusCall(call, environment) },
  { method: 'PUT', path: new RegExp(`^/v1/environments/${ENVIRONMENT}/pin-policy$`), handle: (call, [environment = '']) => pinPolicyCall(call, environment) },
  ...(['stable', 'canary', 'promote', 'rollback'] as const).map(
    (command): Route => ({
      // Setting a state is a PUT (the same body twice: the second is refused as "already" or lands again); a step is a POST.
      method: command === 'stable' || command === 'canary' ? 'PUT' : 'POST',
      path: new RegExp(`^/v1/environments/${ENVIRONMENT}/remotes/${SEGMENT}/${command}$`),
      handle: (call, [environment = '', remote = '']) => rolloutCall(call, command, environment, remote),
    }),
  ),
];

/** The status a thrown error is answered with. */
function statusOf(error: unknown): number {
  if (error instanceof ApiError) return error.status;
  const status: unknown = error !== null && typeof error === 'object' && 'status' in error ? error.status : undefined;
  // An UploadRefused (deploy/verify.ts) says its own: 400, 409, 413, 415 or 422.
  if (error instanceof DeployError && typeof status === 'number' && status >= 400 && status < 500) return status;
  if (error instanceof Conflict) return 409;
  // The command's own refusal (not published, no canary, the compatibility gate…): the CLI's message, as 422.
  if (error instanceof DeployError) return 422;
  return 500;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(text);
}

const bearer = (req: http.IncomingMessage) => /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];

async function answer(req: http.IncomingMessage, res: http.ServerResponse, options: Call['options']) {
  const path = new URL(req.url ?? '/', 'http://api').pathname;
  if (path === '/openapi.yaml' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(200, { 'Content-Type': 'application/yaml', 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(OPENAPI));
    return;
  }
  // The release console (its page, session and views: ./console/routes.ts).
  if (await answerConsole(req, res, path, { database: options.database, env: options.env, events: options.events })) return;
  // Who is calling, before anything else is said: without a valid token, not even whether a path
  // exists. A console session (cookie, and its CSRF token for a change) speaks for its token.
  const token = bearer(req);
  const caller = token !== undefined ? await authenticate(options.database.pool, token) : await consoleCaller(req, options.database.pool);
  if (!caller) throw new ApiError(401, 'a valid token is needed: send "Authorization: Bearer <token>" (npm run tokens -- create, docs/deploy.md).');
  options.backoff.succeeded(clientKey(req.socket.remoteAddress ?? ''));
  const matches = ROUTES.filter((route) => route.path.test(path));
  if (matches.length === 0) throw new ApiError(404, `no such call: ${path} (control-plane/openapi.yaml lists them).`);
  const route = matches.find((candidate) => candidate.method === req.method);
  if (!route) throw new ApiError(405, `${req.method} is not a method of ${path}; ${matches.map((candidate) => candidate.method).join(', ')} is.`);
  const params = route.path.exec(path)?.slice(1) ?? [];
  const call: Call = {
    req,
    caller,
    options,
    check(action, where) {
      if (!allows(caller, action, where)) {
        const place = [where.remote === null ? 'every remote' : where.remote, where.environment && `in ${where.environment}`].filter(Boolean).join(' ');
        throw new ApiError(403, `the token "${caller.name}" may not ${action} ${place}; nothing was changed.`);
      }
    },
  };
  const { status = 200, body } = await route.handle(call, params);
  send(res, status, body);
}

/**
 * Closes a client's connections past `perClient` open ones at once (as scripts/serve.mjs does),
 * and silent ones after `headersTimeout`. Past `total` open connections in all, a newcomer is not
 * turned away while another client holds more: that client's oldest connection is closed instead,
 * so many addresses each holding their share (slow uploads, say) cannot keep a pipeline's one call
 * out of the API.
 */
function limitConnections(server: http.Server, { perClient, total, headersTimeout }: { perClient: number; total: number; headersTimeout: number }, env: NodeJS.ProcessEnv) {
  const trusted = trustedProxiesFrom(env);
  const byClient = new Map<string, Set<Socket>>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    // Node's header timeout starts with a request's first byte: a socket that sends none is closed here.
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, headersTimeout);
    silent.unref();
    socket.once('close', () => clearTimeout(silent));
    const key = trusted.has(socket.remoteAddress) ? null : clientKey(socket.remoteAddress ?? '');
    const mine = key === null ? null : (byClient.get(key) ?? new Set<Socket>());
    if (mine && mine.size >= perClient) {
      socket.destroy();
      return;
    }
    if (open >= total) {
      // The client holding the most gives up its oldest (a trusted proxy, which carries everyone's, never does).
      let most: Set<Socket> | null = null;
      for (const held of byClient.values()) if (!most || held.size > most.size) most = held;
      if (!most || most.size <= (mine?.size ?? 0) + 1) {
        socket.destroy();
        return;
      }
      most.values().next().value?.destroy();
    }
    open += 1;
    socket.once('close', () => (open -= 1));
    if (key === null || mine === null) return;
    mine.add(socket);
    byClient.set(key, mine);
    socket.once('close', () => {
      mine.delete(socket);
      if (mine.size === 0 && byClient.get(key) === mine) byClient.delete(key);
    });
  });
}

/** The API server, not yet listening. */
export function createApi({ database, publish, env = process.env, limits = {} }: ApiOptions): http.Server {
  const all: ApiLimits = { ...API_LIMITS, ...limits };
  const options = { database, publish, env, limits: all, backoff: createAuthBackoff(), events: consoleEvents(database.config) };
  const trusted = trustedProxiesFrom(env);
  const server = http.createServer(
    {
      headersTimeout: all.headersTimeout,
      requestTimeout: all.requestTimeout,
      keepAliveTimeout: all.keepAliveTimeout,
      // Node checks the header and request timeouts on this interval: well under them.
      connectionsCheckingInterval: Math.min(250, all.headersTimeout / 2),
    },
    (req, res) => {
      answer(req, res, options).catch(async (error: unknown) => {
        const status = statusOf(error);
        if (status === 401 || status === 403) await recordRefusal(database.pool, req, { status, reason: messageOf(error), trusted });
        if (status === 500) console.error(`[api] ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        // A body not read to its end (a refused upload) is not waited for: the answer closes the connection.
        const unread = !req.complete;
        const answerNow = () => send(res, status, { error: status === 500 ? 'the control plane failed; see its log.' : messageOf(error) }, unread ? { Connection: 'close' } : {});
        // Wrong tokens again and again from one address: each answered later (./authBackoff.ts).
        const wait = status === 401 ? options.backoff.failed(clientKey(req.socket.remoteAddress ?? '')) : 0;
        if (wait > 0) setTimeout(() => !res.destroyed && answerNow(), wait).unref();
        else answerNow();
      });
    },
  );
  server.timeout = all.idleTimeout;
  limitConnections(server, { perClient: all.connectionsPerClient, total: all.maxConnections, headersTimeout: all.headersTimeout }, env);
  server.on('close', () => void options.events.close());
  return server;
}

/** The API listening on `port` (NETNET_CONTROL_PORT, 8070) at `host` ($HOST, else 127.0.0.1: this machine only). */
export function startApi(options: ApiOptions & { port: number; host?: string }): Promise<http.Server> {
  const { port, host = options.env?.HOST || process.env.HOST || '127.0.0.1' } = options;
  const server = createApi(options);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
