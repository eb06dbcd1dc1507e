// What the control-plane API's calls take and answer, as zod schemas: Fastify checks each request
// against them (a wrong body is a 400 saying what is wrong), the type checker holds each handler's
// answer to them, and control-plane/openapi.yaml is written from them (bin/openapi.ts). A schema
// given an `id` here is one of the document's components.
import { z } from 'zod';
import site from '@netnet/site';

/**
 * Where the document finds its components and every field's description: zod's own registry,
 * where `.describe()` writes. A schema given an `id` (named) is written once and referred to.
 */
export const components = z.globalRegistry;

const named = <T extends z.ZodType>(id: string, schema: T): T => schema.meta({ id, description: schema.description });

/** An environment's name, as the map and the tokens spell it. */
export const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const Error = named('Error', z.object({ error: z.string() }).describe('Refused; `error` says why'));

const planShape = {
  stable: z.string().optional(),
  canary: z.object({ version: z.string(), percent: z.int() }).optional(),
  history: z.array(z.string()).optional(),
  rolledBack: z.array(z.string()).optional(),
};

export const Plan = named('Plan', z.object(planShape).nullable());

export const Expected = named(
  'Expected',
  z
    .looseObject(planShape, { error: '"expected" must be an object or null.' })
    .nullable()
    .describe(
      "The remote's plan as the caller last saw it (null: none rolled out). If the map now holds another, the call is 409 and nothing changes; without it, the change applies to the map as it is.",
    ),
);

export const PinPolicy = named('PinPolicy', z.object({ production: z.boolean(), pinRolledBack: z.boolean() }));

export const Change = named(
  'Change',
  z.object({ environment: z.string(), mapVersion: z.int(), remote: z.string(), plan: Plan, warnings: z.array(z.string()) }),
);

export const Upload = named(
  'Upload',
  z
    .object({
      outcome: z.enum(['published', 'unchanged']),
      remote: z.string(),
      version: z.string(),
      files: z.int(),
      bytes: z.int(),
    })
    .passthrough(),
);

const GuardEvidence = z
  .object({
    canary: z.string(),
    action: z.enum(['wait', 'rollback', 'widen']),
    why: z.string(),
    sessions: z.int(),
    failures: z.int(),
    failingNetworks: z.int(),
    minFailingNetworks: z.int(),
    sessionNetworks: z.int().nullable(),
    failureLlr: z.number(),
    referenceLlr: z.number(),
    rollbackAt: z.object({ failure: z.number(), reference: z.number() }),
  })
  .passthrough()
  .nullable()
  .describe(
    "What the guard's verdict on its canary rests on (null: no canary): the canary's sessions and failures in the window, the distinct client networks they came from (a rollback on failures needs minFailingNetworks), the tests' log-likelihood ratios and where each rolls back",
  );

export const Status = named(
  'Status',
  z.object({
    environment: z.string(),
    mapVersion: z.int().describe('0 when nothing was rolled out there yet'),
    pinPolicy: PinPolicy,
    health: z.array(z.string()).describe('The release-health header lines of `npm run rollout -- status`'),
    remotes: z.record(
      z.string(),
      z.object({
        plan: Plan,
        served: z.unknown().describe("This remote's entry in /remotes.json"),
        published: z.array(z.string()),
        health: z.array(z.string()).describe("Its release health: sessions, failure rate, LCP p75 per release and channel; the guard's verdict and history"),
        guardEvidence: GuardEvidence,
      }),
    ),
    changes: z.array(
      z.object({ mapVersion: z.int(), at: z.string().meta({ format: 'date-time' }), actor: z.string(), action: z.string(), remote: z.string().nullable(), reason: z.string().nullable() }),
    ),
  }),
);

// Path parameters. Their rules are checked before a body is read (./v1.ts, in the order a caller is
// told: who, then may they, then does it exist); the schemas say them in the document.
export const environmentParam = z.string().regex(ENVIRONMENT).meta({ example: 'production' });
export const remoteParam = z.enum(site.remotes as [string, ...string[]]);

/** A body's field list, for the message that names a field this call does not take. */
const strayField = (fields: string[]) => (issue: z.core.$ZodRawIssue) =>
  issue.code === 'unrecognized_keys' ? `"${String(issue.keys[0])}" is not a field of this call (${fields.length ? fields.join(', ') : 'it takes none'}).` : undefined;

/** A JSON object of exactly `shape`'s fields (an empty body is {}: ./v1.ts). */
const bodyOf = <S extends z.ZodRawShape>(shape: S) => z.strictObject(shape, { error: strayField(Object.keys(shape)) });

const mustBoolean = (field: string) => z.boolean({ error: `"${field}" must be true or false.` });
const versionFor = (command: string) => z.string({ error: `${command} needs "version", a published version like 1.4.0.` }).meta({ example: '1.4.0' });
const expected = Expected.optional();
/** Why the change is made, in the caller's words: the audit trail keeps it (the console asks for it on every change). */
export const REASON_MAX = 500;
const reason = z
  .string({ error: '"reason" must be text.' })
  .trim()
  .min(1, { error: '"reason" must say something, or be left out.' })
  .max(REASON_MAX, { error: `"reason" takes at most ${REASON_MAX} characters.` })
  .optional()
  .describe('Why the change is made, in a few words; the audit trail keeps it beside the caller\'s name.')
  .meta({ example: 'error rate flat for an hour at 10 %' });

export const stableBody = bodyOf({
  version: versionFor('stable'),
  skipCompatibilityGate: mustBoolean('skipCompatibilityGate').describe('Roll it out although the compatibility gate refuses it (with a warning).').optional(),
  expected,
  reason,
});

export const canaryBody = bodyOf({
  version: versionFor('canary'),
  // The CLI's rule for --percent (rollouts/commands.ts), so a wrong one is refused in its words (422).
  percent: z
    .union([z.number(), z.string()])
    .optional()
    .describe('A whole number from 0 to 100, as a number or as text; anything else is refused as `npm run rollout -- canary --percent` refuses it (422).')
    .meta({ example: 10 }),
  skipCompatibilityGate: mustBoolean('skipCompatibilityGate').optional(),
  expected,
  reason,
});

export const promoteBody = bodyOf({ skipCompatibilityGate: mustBoolean('skipCompatibilityGate').optional(), expected, reason });

export const rollbackBody = bodyOf({ expected, reason });

export const pinPolicyBody = bodyOf({
  production: mustBoolean('production').describe('Pins only with a valid QA token.').optional(),
  pinRolledBack: mustBoolean('pinRolledBack').describe('Versions rolled back for a defect may be pinned.').optional(),
  expected: z
    .looseObject({ production: z.boolean().optional(), pinRolledBack: z.boolean().optional() }, { error: '"expected" must be an object or null.' })
    .nullable()
    .optional()
    .describe('The policy as the caller last saw it ({ production, pinRolledBack }); if it changed since, 409.'),
  reason,
});

export const publishQuery = z.object({
  browserOnly: z
    .enum(['true', 'false'], { error: 'browserOnly is true or false.' })
    .optional()
    .describe("The release has no server build; the shell's server leaves its area to the browser."),
});
