import type { KeyboardEvent } from 'react';

const STEPS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => Math.min(i + 1, last),
  ArrowLeft: (i) => Math.max(i - 1, 0),
  Home: () => 0,
  End: (_i, last) => last,
};

/**
 * Arrow keys, Home and End move between the poster links of a row, as in a carousel. A row is one
 * Tab stop (roving focus): the caller makes the link focus moved to the row's stop. Returns the
 * index of that link, or null when the key moved nothing.
 */
export function moveFocusWithArrows(event: KeyboardEvent<HTMLElement>): number | null {
  const step = STEPS[event.key];
  if (!step || event.altKey || event.ctrlKey || event.metaKey) return null;
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[href]'));
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return null;
  const next = step(index, links.length - 1);
  const target = links[next];
  if (!target || target === links[index]) return null;
  event.preventDefault();
  target.focus();
  target.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  return next;
}
