// What the page arrives with (control-plane/src/api/console/routes.ts writes it): who is signed in
// and, for a signed-in person, the first view's figures, rendered into the page on the server. It
// is a JSON data block, not a script (the page's policy runs none inline), so the first view needs
// no round trip before it shows.
import { routeFor, signInSecret } from './route';
import type { Overview, Session } from './types';

export interface Boot {
  /** null: the browser has no session (the server checked its cookie). */
  session: Session | null;
  /** Every remote of the session's first environment, as the server rendered it into #root. */
  first: { environment: string; overview: Overview } | null;
}

export const BOOT_ID = 'console-boot';

/** The page's boot block; null when the page came without one (a test, an old build of the API). */
export function readBoot(): Boot | null {
  const text = document.getElementById(BOOT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Boot;
  } catch {
    return null;
  }
}

/**
 * Whether the view the server rendered is the one this address asks for, so React may take it over
 * as it is (hydrate) instead of drawing the page again. Not for a sign-in link (it signs in first)
 * nor a link to another view or environment (the server cannot see the address's fragment).
 */
export function firstViewFits(boot: Boot | null, hash: string): boolean {
  if (!boot?.session || !boot.first || signInSecret(hash)) return false;
  const route = routeFor(hash, boot.session.environments ?? []);
  return route.page === 'overview' && route.environment === boot.first.environment;
}
