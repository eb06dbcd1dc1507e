// What a catch clause holds is unknown in TypeScript: anything can be thrown. These read what the
// control plane's messages and checks need from it, and name the one error meant for a person.

/** A mistake of the person at the keyboard (or of the API's caller): printed as one line, exit code 1. */
export class DeployError extends Error {}

/** The message of whatever was thrown (an Error's own, else the value as text). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The `code` of a system or library error (ENOENT, ERR_PARSE_ARGS_…), if it has one. */
export const codeOf = (error: unknown): unknown =>
  error !== null && typeof error === 'object' && 'code' in error ? error.code : undefined;
