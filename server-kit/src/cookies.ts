// A cookie's value from a request's Cookie header, one reading for the servers (the rollout's QA
// and dev-pin cookies, the console's session): the first pair of that name wins, and whitespace
// around a value is not part of it. What a value must look like is its reader's to check.

/** The value of cookie `name` in `header` (a header sent twice counts as one list), or null. */
export function cookieValue(header: string | readonly string[] | undefined, name: string): string | null {
  const text = typeof header === 'string' ? header : (header ?? []).join('; ');
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at >= 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
