// The control-plane API (control-plane/openapi.yaml; docs/deploy.md, "What a team's pipeline
// runs"): HTTP + JSON on Fastify, the one way a team's pipeline changes anything. Every call but the
// description itself carries a token (./tokens.ts) and is checked against its scope before
// anything is read or written: no token, an unknown, wrong or revoked one → 401; a remote,
// environment or action outside its scope → 403, nothing changed. Changes go through the same
// code as `npm run rollout` (rollouts/change.ts: compare-and-set, audit trail under
// `token:<name>`), so two conflicting changes at once end as they do there: one lands, the other
// gets 409. Uploads are verified and published by releases/upload.ts. The calls are ./v1.ts, the
// release console's ./console/routes.ts.
//
// The same connection limits as the site's other servers (@netnet/server-kit, docs/limits.md),
// with room for an upload: its body may take a minute, but never stall for more than 10 s.
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject, hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { clientKey, CONNECTION_LIMITS, createLogger, limitConnections, loggerOptions, serverOptions, trustedProxiesFrom, type Logger, type TrustedProxies } from '@netnet/server-kit';
import { readApiConfig, type ApiConfig } from '../config.ts';
import { UPLOAD_LIMITS, type publishUpload } from '../releases/upload.ts';
import { messageOf } from '../errors.ts';
import type { Database } from '../store/database.ts';
import { createAuthBackoff } from './authBackoff.ts';
import { consoleEvents, type ConsoleEvents } from './console/events.ts';
import { consoleCaller, consoleRoutes } from './console/routes.ts';
import { describeApi, DOCUMENT, tidy } from './openapi.ts';
import { ApiError, JSON_HEADERS, statusOf } from './refusal.ts';
import { recordRefusal } from './refusals.ts';
import { components } from './schemas.ts';
import { authenticate, type Caller } from './tokens.ts';
import { noSuchCall, v1Routes } from './v1.ts';
import { z } from 'zod';

/** The API's limits; see the comment at the top. */
export const API_LIMITS = Object.freeze({
  ...CONNECTION_LIMITS,
  /** A whole request, body included: an 80 MiB archive at 1.4 MB/s. */
  requestTimeout: 60_000,
  /** A connection that sends nothing (a stalled upload) for this long is closed. */
  idleTimeout: 10_000,
  /** A pipeline opens a few at a time; this leaves room for several behind one address. */
  connectionsPerClient: 16,
  /** Open connections in all; past it the client holding the most gives its oldest up to a newcomer. */
  maxConnections: 256,
  /** A JSON body (a rollout change). */
  jsonBytes: 16 * 1024,
  /** An upload as sent: the archive limit of releases/archive.ts, refused from its Content-Length before a byte is read. */
  uploadBytes: UPLOAD_LIMITS.archiveBytes,
});

export type ApiLimits = Record<keyof typeof API_LIMITS, number>;

/** What publishes an upload: releases/upload.ts's publishUpload, or a stand-in in tests. */
export type PublishUpload = typeof publishUpload;

export interface ApiOptions {
  database: Database;
  publish: PublishUpload;
  /** The environment the API's entry read its config from (a test's own). */
  env: NodeJS.ProcessEnv;
  /** The API's config (../config.ts), read once by its entry; read from `env` when not given. */
  config?: ApiConfig;
  limits?: Partial<ApiLimits>;
  logger?: Logger;
}

/** What the routes share. */
export interface ApiContext {
  database: Database;
  publish: PublishUpload;
  config: ApiConfig;
  limits: ApiLimits;
  events: ConsoleEvents;
  trusted: TrustedProxies;
  /** The caller of a /v1 call (a bearer token, or a console session speaking for one), or a 401. */
  identify(request: FastifyRequest): Promise<Caller>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made a /v1 call, once ./v1.ts's checks know. */
    caller: Caller | null;
  }
}

const bearer = (request: FastifyRequest) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];

const peerKey = (request: FastifyRequest) => clientKey(request.raw.socket.remoteAddress ?? '');

/** What a refusal says: its own message, or Fastify's refusals in the API's words. */
function messageFor(error: unknown, request: FastifyRequest, status: number): string {
  if (status === 500) return 'the control plane failed; see its log.';
  if (hasZodFastifySchemaValidationErrors(error)) {
    // A field the call does not take is named first: it is the likeliest mistake.
    const issue = error.validation.find((one) => one.keyword === 'unrecognized_keys') ?? error.validation[0]!;
    const path = issue.instancePath.split('/').filter(Boolean);
    return path.length > 1 ? `"${path.join('.')}": ${issue.message}` : (issue.message ?? 'the request does not match its schema.');
  }
  const code = error !== null && typeof error === 'object' && 'code' in error ? error.code : undefined;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return `${request.url.startsWith('/console/') ? 'this body' : 'a JSON body'} may hold at most ${request.routeOptions.bodyLimit} bytes.`;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'send the body as application/json.';
  return messageOf(error);
}

/** The API server, not yet listening (`await app.listen(…)`, or startApi). */
export async function createApi({ database, publish, env, config = readApiConfig(env), limits = {}, logger = createLogger('control-api', config.logLevel) }: ApiOptions): Promise<FastifyInstance> {
  const all: ApiLimits = { ...API_LIMITS, ...limits };
  const trusted = trustedProxiesFrom(config);
  const backoff = createAuthBackoff();
  const app = Fastify({
    ...serverOptions(all),
    ...loggerOptions(logger),
    bodyLimit: all.jsonBytes,
    exposeHeadRoutes: false,
    // A path that cannot be decoded is refused in the API's own shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      void reply.code(400).headers(JSON_HEADERS).send(`${JSON.stringify({ error: `the path is not valid (${error.message}).` }, null, 2)}\n`);
    },
  });
  limitConnections(app, all, { trusted, fairShare: true });
  app.setValidatorCompiler(validatorCompiler);
  // Answers are written as before, indented; their shapes are held to the schemas by the type checker.
  app.setSerializerCompiler(() => (data) => `${JSON.stringify(data, null, 2)}\n`);
  app.decorateRequest('caller', null);
  // Every JSON answer with the API's headers, as written (Fastify would add a charset JSON has no use for).
  app.addHook('onSend', async (_request, reply) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.headers(JSON_HEADERS);
  });

  const context: ApiContext = {
    database,
    publish,
    config,
    limits: all,
    events: consoleEvents(database.config),
    trusted,
    // Who is calling, before anything else is said: without a valid token, not even whether a path
    // exists. A console session (cookie, and its CSRF token for a change) speaks for its token.
    async identify(request) {
      const token = bearer(request);
      const caller = token !== undefined ? await authenticate(database.pool, token) : await consoleCaller(request.raw, database.pool);
      if (!caller) throw new ApiError(401, 'a valid token is needed: send "Authorization: Bearer <token>" (npm run tokens -- create, docs/deploy.md).');
      backoff.succeeded(peerKey(request));
      request.caller = caller;
      return caller;
    },
  };

  app.setErrorHandler(async (error, request, reply: FastifyReply) => {
    const status = statusOf(error);
    const message = messageFor(error, request, status);
    if (status === 401 || status === 403) await recordRefusal(database.pool, request.raw, { status, reason: message, trusted, log: request.log });
    if (status === 500) request.log.error({ err: error, method: request.method, url: request.url }, 'a call failed');
    // A body not read to its end (a refused upload) is not waited for: the answer closes the connection.
    if (!request.raw.complete) reply.header('Connection', 'close');
    // Wrong tokens again and again from one address: each answered later (./authBackoff.ts).
    const wait = status === 401 ? backoff.failed(peerKey(request)) : 0;
    if (wait > 0) await new Promise((done) => setTimeout(done, wait).unref());
    // Written here, not by a context's serializer: every refusal reads alike, whichever part of the API made it.
    return reply.code(status).headers(JSON_HEADERS).send(`${JSON.stringify({ error: message }, null, 2)}\n`);
  });

  // The description, written from the routes' own schemas (./openapi.ts).
  await app.register(fastifySwagger, {
    openapi: DOCUMENT,
    transform: createJsonSchemaTransform({ schemaRegistry: components }),
    transformObject: (document) => tidy(createJsonSchemaTransformObject({ schemaRegistry: components })(document) as Record<string, unknown>) as never,
  });
  let description: string | null = null;
  const serveDescription = async (_request: FastifyRequest, reply: FastifyReply) => {
    description ??= describeApi(app);
    return reply.code(200).headers({ 'Content-Type': 'application/yaml', 'Cache-Control': 'no-cache' }).send(description);
  };
  app.route({ method: 'HEAD', url: '/openapi.yaml', schema: { hide: true }, handler: serveDescription });
  app.route({
    method: 'GET',
    url: '/openapi.yaml',
    schema: {
      summary: 'This description (no token needed)',
      security: [],
      response: { 200: { description: 'The OpenAPI document', content: { 'application/yaml': { schema: z.string() } } } },
    },
    handler: serveDescription,
  });

  await app.register(async (calls) => v1Routes(calls, context));
  // The release console (its page, session and views).
  await app.register(async (console) => consoleRoutes(console, context));

  app.setNotFoundHandler(async (request) => {
    await context.identify(request);
    throw noSuchCall(new URL(request.url, 'http://api').pathname);
  });
  // The consoles' streams never end by themselves: ended first, so closing does not wait on them.
  app.addHook('preClose', async () => context.events.close());
  return app;
}

/** The API listening on its config's port and host (NETNET_CONTROL_PORT, 8070; HOST, 127.0.0.1: this machine only). */
export async function startApi(options: ApiOptions & { config: ApiConfig }): Promise<FastifyInstance> {
  const app = await createApi(options);
  await app.listen({ port: options.config.controlPort, host: options.config.host });
  return app;
}
