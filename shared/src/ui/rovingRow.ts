import { useState, type FocusEvent, type KeyboardEvent } from 'react';

// A row of posters is one Tab stop (roving focus, docs/product.md#genre-rows): the arrow keys,
// Home and End move between its links, and Tab leaves the row from the one the member is on.

const STEPS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => Math.min(i + 1, last),
  ArrowLeft: (i) => Math.max(i - 1, 0),
  Home: () => 0,
  End: (_i, last) => last,
};

const linksIn = (element: Element) => Array.from(element.querySelectorAll<HTMLAnchorElement>('a[href]'));

/** The focused link whole on screen: a row's scroller clips what focus alone would leave half out. */
const reveal = (link: Element) => link.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });

/**
 * Arrow keys, Home and End move focus between the links of a row. Returns the index of the link
 * focus moved to, or null when the key moved nothing.
 */
export function moveFocusWithArrows(event: KeyboardEvent<HTMLElement>): number | null {
  const step = STEPS[event.key];
  if (!step || event.altKey || event.ctrlKey || event.metaKey) return null;
  const links = linksIn(event.currentTarget);
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return null;
  const next = step(index, links.length - 1);
  const target = links[next];
  if (!target || target === links[index]) return null;
  event.preventDefault();
  target.focus();
  reveal(target);
  return next;
}

/**
 * A row's roving focus: spread `handlers` on the element around its links and give each link
 * `tabIndexOf(index)`. The link last reached (by the arrows, a click or Tab) holds the row's stop.
 */
export function useRovingRow(count: number) {
  const [current, setCurrent] = useState(0);
  const stop = Math.max(0, Math.min(current, count - 1));
  const handlers = {
    onFocus(event: FocusEvent<HTMLElement>) {
      const index = linksIn(event.currentTarget).indexOf(event.target as HTMLAnchorElement);
      if (index < 0) return;
      reveal(event.target);
      if (index !== stop) setCurrent(index);
    },
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      const moved = moveFocusWithArrows(event);
      if (moved !== null) setCurrent(moved);
    },
  };
  return { tabIndexOf: (index: number) => (index === stop ? 0 : -1), handlers };
}
