// One typed config per process, read once from the environment. Each variable is named with its
// schema and its meaning, so a wrong value stops the process with a message that says what the
// variable is for, and `describeConfig` lists every variable a process reads (its README's table).
import { z } from 'zod';

export interface Variable<T> {
  name: string;
  schema: z.ZodType<T>;
  meaning: string;
}

/** A variable of the environment: its name, what it may hold (with its default) and what it means. */
export const variable = <T>(name: string, schema: z.ZodType<T>, meaning: string): Variable<T> => ({ name, schema, meaning });

export type ConfigOf<V extends Record<string, Variable<unknown>>> = { readonly [K in keyof V]: V[K] extends Variable<infer T> ? T : never };

export class ConfigError extends Error {}

/**
 * The config `variables` describe, read from `env` (a process's entry passes process.env; a test its
 * own); an empty variable counts as unset. Throws a ConfigError naming every wrong one.
 */
export function readConfig<V extends Record<string, Variable<unknown>>>(variables: V, env: NodeJS.ProcessEnv): ConfigOf<V> {
  const values: Record<string, unknown> = {};
  const wrong: string[] = [];
  for (const [key, { name, schema, meaning }] of Object.entries(variables)) {
    const raw = env[name] === '' ? undefined : env[name];
    const read = schema.safeParse(raw);
    if (read.success) values[key] = read.data;
    else wrong.push(`${name}=${JSON.stringify(raw ?? '')}: ${read.error.issues.map((issue) => issue.message).join('; ')} (${meaning})`);
  }
  if (wrong.length > 0) throw new ConfigError(`The environment is not right:\n  ${wrong.join('\n  ')}`);
  return Object.freeze(values) as ConfigOf<V>;
}

/**
 * A process's config, read by its entry at start: a wrong environment stops the process there,
 * before it does anything, with every wrong variable named on stderr and exit code 2.
 */
export function readConfigOrExit<V extends Record<string, Variable<unknown>>>(who: string, variables: V, env: NodeJS.ProcessEnv): ConfigOf<V> {
  try {
    return readConfig(variables, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${who}: ${error.message}`);
    return process.exit(2);
  }
}

/** Every variable with its default (as the process would read an unset one) and meaning. */
export function describeConfig(variables: Record<string, Variable<unknown>>): { name: string; default: string; meaning: string }[] {
  return Object.values(variables).map(({ name, schema, meaning }) => {
    const unset = schema.safeParse(undefined);
    return { name, default: unset.success && unset.data !== undefined ? String(unset.data) : '(unset)', meaning };
  });
}

/** A whole number of at least `min`, given as text. */
export const wholeNumber = (min = 0) =>
  z
    .string()
    .regex(/^\d+$/, 'not a whole number')
    .transform(Number)
    .refine((value) => value >= min, `must be at least ${min}`);

/** `on` or `off`. */
export const onOff = z.enum(['on', 'off']);
