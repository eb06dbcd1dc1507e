// The two first-party cookies that tell the shell's server whom a page is for (docs/architecture.md#server-rendering).
// Both are set by the shell in the browser too (rollout/identity.ts, auth/startAuth.ts), so the
// server and the browser bucket a visitor alike.
//  - netnet-device: a random id for this browser, the bucket of a visitor;
//  - netnet-member: the signed-in member's uid, a hint (never a credential: Firebase in the browser
//    has the last word) that members' pages may be rendered, and the bucket of a member.

export const DEVICE_COOKIE = 'netnet-device';
export const MEMBER_COOKIE = 'netnet-member';
const YEAR_S = 365 * 24 * 60 * 60;

// Ids are UUIDs or Firebase uids: letters, digits, '-' and '_'. Anything else is ignored.
const ID = /^[\w-]{1,128}$/;
export const isId = (value: string): boolean => ID.test(value);

/** The cookie's value if it is a well-formed id. */
export function readIdCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return isId(value) ? value : null;
  }
  return null;
}

/** A Set-Cookie value (or document.cookie assignment) for an id: readable by the shell's script, sent to this site only. */
export function idCookie(name: string, value: string, { secure = false } = {}): string {
  return `${name}=${value}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The assignment that deletes a cookie. */
export const clearedCookie = (name: string): string => `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
