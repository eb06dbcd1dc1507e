// Where a visitor was going when the members-only guard sent them to the landing page
// (docs/product.md#guards-and-redirects). It is kept for this tab (sessionStorage), so it survives
// the way through Sign In, /login?email= and a reload, and it belongs to that visitor only: a
// member who signs out leaves no page behind for whoever signs in next in the tab.

const KEY = 'netnet:return-to';

// Set while a member signs out: the page they leave is not a place anyone asked to return to.
let leaving = false;

/** A path on this site ("/title/604?play=1"), never "//elsewhere" or "https://…". */
export const isSameSitePath = (path: string): boolean => path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage blocked by the browser: the member lands on /browse, as without a return-to page.
    return null;
  }
}

/** Whether a visitor sent away from `path` now has it kept (the landing page then says so). */
export const keepsReturnTo = (path: string): boolean => !leaving && isSameSitePath(path);

/** The visitor was sent away from `path`: they go on to it once signed in. */
export function rememberReturnTo(path: string): void {
  if (!keepsReturnTo(path)) return;
  try {
    storage()?.setItem(KEY, path);
  } catch {
    // Full or blocked storage: nothing to remember with, nothing lost but the detour.
  }
}

/** The page to go on to after signing in, if a visitor was sent away from one. */
export function returnTo(): string | null {
  try {
    const path = storage()?.getItem(KEY) ?? null;
    return path !== null && isSameSitePath(path) ? path : null;
  } catch {
    return null;
  }
}

export function forgetReturnTo(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing stored that could be read either.
  }
}

/** A member is signing out: forget any page, and remember none until a visitor's page shows. */
export function startLeaving(): void {
  leaving = true;
  forgetReturnTo();
}

/** Signing out is over (the visitors' page shows, or it failed): visitors' pages count again. */
export function stopLeaving(): void {
  leaving = false;
}
