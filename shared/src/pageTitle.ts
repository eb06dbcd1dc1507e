import { useEffect } from 'react';

// Each page names itself (docs/product.md#frame-headers-and-navigation): the browser tab reads "{page} — Netnet", and
// after a client-side navigation focus moves to the new page's level-1 heading, so a screen reader
// announces the page once, by name, as it would after a page load.

export const SITE_NAME = 'Netnet';

/** The document title for a page's name ("Home" → "Home — Netnet"); null: the site's name alone. */
export const documentTitle = (page: string | null): string => (page ? `${page} — ${SITE_NAME}` : SITE_NAME);

// The path that last named itself: the first page of a visit keeps focus where the browser put it
// (the top, so the skip link is the first Tab stop); a later page with another path takes it.
let namedPath: string | null = null;

/** The heading a new page's focus starts on: the main area's level-1 heading. */
function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}

/**
 * Names the page once it knows its name (null while it does not, e.g. while a title loads: its
 * heading is not the page's yet, so focus waits for the real one).
 */
export function usePageTitle(name: string | null): void {
  useEffect(() => {
    if (name === null) return;
    document.title = documentTitle(name);
    const path = window.location.pathname;
    const moved = namedPath !== null && namedPath !== path;
    namedPath = path;
    if (moved) focusPageHeading();
  }, [name]);
}
