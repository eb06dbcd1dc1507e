// The description's parts that no route holds: what the API is for, where it listens, how a caller
// proves who it is. The paths and schemas are written from the routes themselves (./v1.ts,
// ./schemas.ts) by @fastify/swagger; `npm run openapi -w @netnet/control-plane` writes them to
// control-plane/openapi.yaml, and ./openapi.test.ts fails when that file is not what the code says.
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../store/database.ts';

/** Where the checked-in description lives. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

export const DOCUMENT = {
  openapi: '3.0.3',
  info: {
    title: 'Netnet control-plane API',
    version: '1.0.0',
    description: `The one way a team's pipeline changes what members get (docs/pipelines.md, "What a team's pipeline runs"): publish a release of a remote, then roll it out per environment — stable, canary with a percent, promote, rollback — set the QA pin policy, and read the status with release health. Served by control-plane/bin/api.ts (port 8070 by default, NETNET_CONTROL_PORT).

Every call but this description needs \`Authorization: Bearer <token>\` (made with \`npm run tokens -- create\`). A token is scoped to remotes, environments and actions (publish, stable, canary, promote, rollback, pin, status). No token, or an unknown, wrong or revoked one: 401. Outside its scope: 403, and nothing changes. Every change lands in the audit trail under \`token:<name>\`.

Changes are compare-and-set on the environment's map: a change of the same remote that landed first makes this one 409 ("changed by someone else meanwhile"), nothing written. Read the status and try again. A command the rollout refuses (a version not published, no canary to promote, the compatibility gate) is 422 with the same message \`npm run rollout\` prints. A body the call's schema refuses is 400, saying which field and why.

This file is written from the code (control-plane/src/api/v1.ts and schemas.ts): \`npm run openapi -w @netnet/control-plane\`.
`,
  },
  servers: [{ url: 'http://127.0.0.1:8070' }],
  security: [{ token: [] }],
  components: {
    securitySchemes: {
      token: {
        type: 'http' as const,
        scheme: 'bearer',
        description:
          'netnet_<name>_<secret>, from `npm run tokens -- create <name> …`. The release console sends its session cookie (netnet-console) and X-Netnet-CSRF instead (docs/releases.md).',
      },
    },
  },
};

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object';

function visit(value: unknown, see: (node: Node) => void): void {
  if (Array.isArray(value)) for (const item of value) visit(item, see);
  else if (isNode(value)) {
    see(value);
    for (const child of Object.values(value)) visit(child, see);
  }
}

const ERROR_RESPONSE = { description: 'Refused; `error` says why', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/**
 * The generated document made as readable as the hand-written one was: one Error response referred
 * to, no safe-integer bounds on every integer, a body with no required field marked optional, and
 * only the schemas the paths use, named without the "Input" zod's request side gives them.
 */
export function tidy(generated: Node): Node {
  const document = structuredClone(generated);
  const errorText = JSON.stringify(ERROR_RESPONSE);
  visit(document, (node) => {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
    const responses = node.responses;
    if (isNode(responses)) for (const [status, response] of Object.entries(responses)) if (JSON.stringify(response) === errorText) responses[status] = { $ref: '#/components/responses/Error' };
    const body = node.requestBody;
    if (isNode(body) && isNode(body.content)) {
      const schemas = Object.values(body.content).map((media) => (isNode(media) ? media.schema : undefined));
      if (schemas.every((schema) => isNode(schema) && schema.type === 'object' && schema.required === undefined)) body.required = false;
    }
  });
  const components = document.components as Node & { schemas: Record<string, unknown> };
  components.responses = { Error: ERROR_RESPONSE };
  // Drop what nothing refers to (again, as a dropped schema may have been the only user of another).
  for (let dropped = true; dropped; ) {
    dropped = false;
    const text = JSON.stringify({ ...document, components: { ...components, schemas: Object.fromEntries(Object.entries(components.schemas).map(([id, schema]) => [id, schema])) } });
    for (const id of Object.keys(components.schemas)) {
      const ref = `"#/components/schemas/${id}"`;
      const usedElsewhere = text.split(ref).length - 1 > JSON.stringify(components.schemas[id]).split(ref).length - 1;
      if (!usedElsewhere) {
        delete components.schemas[id];
        dropped = true;
      }
    }
  }
  let text = JSON.stringify(document);
  for (const id of Object.keys(components.schemas)) {
    const plain = id.replace(/Input$/, '');
    if (plain !== id && !(plain in components.schemas)) text = text.replaceAll(`"#/components/schemas/${id}"`, `"#/components/schemas/${plain}"`).replace(`"${id}":{`, `"${plain}":{`);
  }
  return JSON.parse(text) as Node;
}

/** The description as the routes of `app` (ready) say it. */
export const describeApi = (app: FastifyInstance): string => app.swagger({ yaml: true });

/** An API that is never started, for writing its description: no store is reached. */
export const NO_DATABASE = { config: {}, pool: {} } as unknown as Database;
