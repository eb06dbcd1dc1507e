// The calls a team's pipeline makes (control-plane/openapi.yaml is written from these routes and
// ./schemas.ts). Each call is checked in the order a caller is told: who it is (401, before even
// whether the path exists), whether its token may (403), whether the remote or environment exists
// (404); only then is a body read, and Fastify checks it against its schema (400).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { healthReport } from '../guard/status.ts';
import { remoteMapFor } from '../rollouts/remoteMap.ts';
import { parsePercent } from '../rollouts/commands.ts';
import { changeRollout, type RolloutCommand } from '../rollouts/change.ts';
import { assertVersion } from '../names.ts';
import { messageOf } from '../errors.ts';
import site from '@netnet/site';
import { listReleases } from '../store/releases.ts';
import { auditTrail, Conflict, emptyRollout, readRollout, updateRollout, type RemotePlan } from '../store/rollouts.ts';
import { ApiError } from './refusal.ts';
import * as schemas from './schemas.ts';
import type { ApiContext } from './server.ts';
import { allows, remotesIn, type Action } from './tokens.ts';

const MiB = 1024 * 1024;

/** An answer other than 2xx as the document lists it. */
const refusals = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, { description: 'Refused; `error` says why', content: { 'application/json': { schema: schemas.Error } } }]));

const answer = <T extends z.ZodType>(description: string, schema: T) => ({ description, content: { 'application/json': { schema } } });

type Where = { remote?: string | null; environment?: string | null };

/** No such call: what a path the routes do not know (or an environment named wrongly) is answered, once the caller is known. */
export const noSuchCall = (path: string) => new ApiError(404, `no such call: ${path} (control-plane/openapi.yaml lists them).`);

const pathOf = (request: FastifyRequest) => new URL(request.url, 'http://api').pathname;

function knownRemote(remote: string): string {
  if (!site.remotes.includes(remote)) throw new ApiError(404, `Unknown remote "${remote}". Known remotes: ${site.remotes.join(', ')}.`);
  return remote;
}

/**
 * The checks before a body is read, as one onRequest hook: the caller (./server.ts, identify),
 * the environment's name, the token's scope for `action` and the remote.
 */
function checks(context: ApiContext, action: Action | null, where: (params: Record<string, string>) => Where) {
  return async (request: FastifyRequest) => {
    const caller = await context.identify(request);
    const params = request.params as Record<string, string>;
    if (params.environment !== undefined && !schemas.ENVIRONMENT.test(params.environment)) throw noSuchCall(pathOf(request));
    if (action === null) return;
    const at = where(params);
    if (!allows(caller, action, at)) {
      const place = [at.remote === null ? 'every remote' : at.remote, at.environment && `in ${at.environment}`].filter(Boolean).join(' ');
      throw new ApiError(403, `the token "${caller.name}" may not ${action} ${place}; nothing was changed.`);
    }
    if (typeof at.remote === 'string') knownRemote(at.remote);
  };
}

/** The calls of /v1, registered on `app` (a context of their own: their JSON parser and limits). */
export async function v1Routes(app: FastifyInstance, context: ApiContext): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { limits } = context;

  // A JSON body, or none ({}): an object, or a clear 400.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limits.jsonBytes }, (request, text, done) => {
    if (text === '') return done(null, {});
    json(request, text as string, (error, value) => {
      if (error) return done(new ApiError(400, `the body is not JSON (${messageOf(error)}).`), undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return done(new ApiError(400, 'the body must be a JSON object.'), undefined);
      done(null, value);
    });
  });
  // No body at all is an empty object, as a caller without one means.
  const noBodyIsEmpty = async (request: FastifyRequest) => {
    request.body ??= {};
  };

  const methodsOf = new Map<string, string[]>();
  app.addHook('onRoute', (route) => {
    if ((route.config as { notAllowed?: boolean } | undefined)?.notAllowed) return;
    methodsOf.set(route.url, [...(methodsOf.get(route.url) ?? []), ...[route.method].flat()]);
  });

  const environment = { environment: schemas.environmentParam };

  // A change of one remote's rollout: stable, canary, promote or rollback.
  const commands = [
    {
      command: 'stable',
      method: 'PUT',
      summary: 'Make a published version stable at once (action stable)',
      body: schemas.stableBody,
    },
    {
      command: 'canary',
      method: 'PUT',
      summary: 'Send a share of members to a published version (action canary); again to change the share',
      body: schemas.canaryBody,
    },
    { command: 'promote', method: 'POST', summary: 'The canary becomes stable for everyone (action promote)', body: schemas.promoteBody },
    { command: 'rollback', method: 'POST', summary: 'Drop the canary, or with none go back to the previous stable (action rollback)', body: schemas.rollbackBody },
  ] as const;
  for (const { command, method, summary, body } of commands) {
    routes.route({
      // Setting a state is a PUT (the same body twice: the second is refused as "already" or lands again); a step is a POST.
      method,
      url: `/v1/environments/:environment/remotes/:remote/${command}`,
      schema: {
        summary,
        params: z.object({ ...environment, remote: schemas.remoteParam }),
        body,
        response: { 200: answer('Written; every instance of the site serves it within a second', schemas.Change), ...refusals(400, 401, 403, 404, 409, 422) },
      },
      onRequest: checks(context, command, (params) => ({ remote: params.remote, environment: params.environment })),
      preValidation: noBodyIsEmpty,
      handler: async (request, reply) => {
        const { environment: where, remote } = request.params;
        const given = request.body as { version?: string; percent?: number | string; skipCompatibilityGate?: boolean; expected?: RemotePlan | null; reason?: string };
        // The CLI's rule for --percent: a whole number 0–100, as a number or as the text typed.
        const percent = command === 'canary' ? parsePercent(typeof given.percent === 'number' && Number.isInteger(given.percent) ? String(given.percent) : given.percent) : undefined;
        const warnings: string[] = [];
        const written = await changeRollout(
          context.database.pool,
          where,
          { command: command as RolloutCommand, remote, version: given.version, percent, skipGate: given.skipCompatibilityGate === true, expected: given.expected },
          { actor: request.caller!.actor, reason: given.reason, warn: (line) => warnings.push(line), gate: context.config },
        );
        return reply.send({ environment: where, mapVersion: written.version, remote, plan: written.rollout.remotes[remote] ?? null, warnings });
      },
    });
  }

  routes.route({
    method: 'GET',
    url: '/v1/environments/:environment/status',
    schema: {
      summary: 'What each remote the token covers serves, its published releases and release health (action status)',
      params: z.object(environment),
      response: { 200: answer('The status', schemas.Status), ...refusals(401, 403) },
    },
    onRequest: checks(context, 'status', (params) => ({ environment: params.environment })),
    handler: async (request, reply) => {
      const { environment: where } = request.params;
      const db = context.database.pool;
      const remotes = remotesIn(request.caller!, site.remotes);
      const [{ version, rollout }, releases] = await Promise.all([readRollout(db, where), listReleases(db)]);
      const health = await healthReport({ db, environment: where, rollout, remotes, minFailingNetworks: context.config.minFailingNetworks });
      const served = remoteMapFor(where, { rollout, releases }, context.config);
      const changes = (await auditTrail(db, where, 50)).filter((entry) => entry.remote !== null && remotes.includes(entry.remote)).slice(0, 10);
      return reply.send({
        environment: where,
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
              guardEvidence: (health.evidence.get(remote) ?? null) as z.infer<typeof schemas.Status>['remotes'][string]['guardEvidence'],
            },
          ]),
        ),
        changes: changes.map((entry) => ({ mapVersion: entry.map_version, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, remote: entry.remote, reason: entry.reason })),
      });
    },
  });

  // The QA pin policy of an environment: it concerns every remote, so it takes a token for all of them.
  routes.route({
    method: 'PUT',
    url: '/v1/environments/:environment/pin-policy',
    schema: {
      summary: 'The QA pin policy (action pin; it concerns every remote, so the token must cover all remotes, "*")',
      params: z.object(environment),
      body: schemas.pinPolicyBody,
      response: {
        200: answer('Written', z.object({ environment: z.string(), mapVersion: z.int(), pinPolicy: schemas.PinPolicy })),
        ...refusals(400, 401, 403, 409),
      },
    },
    onRequest: checks(context, 'pin', (params) => ({ remote: null, environment: params.environment })),
    preValidation: noBodyIsEmpty,
    handler: async (request, reply) => {
      const { environment: where } = request.params;
      const { production, pinRolledBack, expected, reason } = request.body;
      if (production === undefined && pinRolledBack === undefined) throw new ApiError(400, 'give "production", "pinRolledBack" or both.');
      const written = await updateRollout(
        context.database.pool,
        where,
        (latest) => {
          const next = latest ?? emptyRollout();
          const seen = { production: next.production === true, pinRolledBack: next.pinRolledBack === true };
          if (expected && (expected.production !== seen.production || expected.pinRolledBack !== seen.pinRolledBack)) {
            throw new Conflict(`the pin policy of ${where} was changed by someone else first (now production ${seen.production}, rolled-back pins ${seen.pinRolledBack}); nothing was changed.`);
          }
          if (production !== undefined) next.production = production;
          if (pinRolledBack !== undefined) next.pinRolledBack = pinRolledBack;
          return next;
        },
        { actor: request.caller!.actor, action: 'pin', reason },
      );
      return reply.send({ environment: where, mapVersion: written.version, pinPolicy: { production: written.rollout.production === true, pinRolledBack: written.rollout.pinRolledBack === true } });
    },
  });

  // A release uploaded as one tar archive (gzip or not), verified, then published and registered.
  // Its body is the upload's to read (releases/upload.ts streams and checks it): no parser reads it here.
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _body, done) => done(null, undefined));
    uploads.withTypeProvider<ZodTypeProvider>().route({
      method: 'POST',
      url: '/v1/remotes/:remote/releases/:version',
      schema: {
        summary: 'Publish a release (action publish)',
        description: [
          "The body is the remote's built dist/ as one tar archive, gzip-compressed or not, paths",
          "relative to the build's root. It is verified whole (sizes, paths, kinds of entries, every",
          "file's SHA-384, every .br/.gz against its file, the server build, the manifest's name and",
          'version, the compatibility gate) before it is moved into the origin folder and registered,',
          'atomically. Publishing names no environment: a release is rolled out per environment later.',
          'The same version with the same files again: 200, nothing changes (a retried pipeline is',
          'safe). With other files: 409 (versions are immutable).',
        ].join('\n'),
        params: z.object({ remote: schemas.remoteParam, version: z.string().meta({ example: '1.4.0' }) }),
        querystring: schemas.publishQuery,
        consumes: ['application/gzip', 'application/x-tar'],
        body: z.string().meta({ format: 'binary' }).optional(),
        response: {
          201: answer('Published and registered', schemas.Upload),
          200: answer('Already published with exactly these files; nothing changed', schemas.Upload),
          ...refusals(400, 401, 403, 404, 409, 413, 415, 422),
        },
      },
      // The archive is no JSON to check: the upload verifies it as it streams in (its schema documents it).
      validatorCompiler: ((route: Parameters<typeof validatorCompiler>[0]) => (route.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(route))) as never,
      onRequest: [
        checks(context, 'publish', (params) => ({ remote: params.remote })),
        async (request) => {
          try {
            assertVersion((request.params as { version: string }).version);
          } catch (error) {
            throw new ApiError(400, messageOf(error));
          }
          // Refused from its Content-Length, before a byte of it is read.
          if (Number(request.headers['content-length'] ?? 0) > limits.uploadBytes) throw new ApiError(413, `the archive is larger than ${limits.uploadBytes / MiB} MiB.`);
        },
      ],
      handler: async (request, reply) => {
        const { remote, version } = request.params;
        const result = await context.publish({
          remote,
          version,
          body: request.raw,
          contentType: request.headers['content-type'],
          browserOnly: request.query.browserOnly === 'true',
          db: context.database,
          // The API's working folder, the releases' origin, the runtime documents, the shell's manifest.
          settings: context.config,
          // Who published it, recorded with the registration (and so in the audit trail).
          publishedBy: request.caller!.actor,
        });
        return reply.code(result.outcome === 'published' ? 201 : 200).send(result);
      },
    });
  });

  // A path the calls know, asked with another method: 405, naming the ones it takes (once the caller is known).
  for (const [url, methods] of methodsOf) {
    const others = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'].filter((method) => !methods.includes(method));
    app.route({
      method: others,
      url,
      schema: { hide: true },
      config: { notAllowed: true } as object,
      onRequest: checks(context, null, () => ({})),
      handler: async (request: FastifyRequest, _reply: FastifyReply) => {
        throw new ApiError(405, `${request.method} is not a method of ${pathOf(request)}; ${methods.join(', ')} is.`);
      },
    } satisfies RouteOptions);
  }
}
