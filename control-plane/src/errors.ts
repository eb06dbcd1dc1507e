// What a catch clause holds is unknown in TypeScript: anything can be thrown. These read what the
// control plane's messages and checks need from it.

/** The message of whatever was thrown (an Error's own, else the value as text). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The `code` of a system or library error (ENOENT, ERR_PARSE_ARGS_…), if it has one. */
export const codeOf = (error: unknown): unknown =>
  error !== null && typeof error === 'object' && 'code' in error ? error.code : undefined;
