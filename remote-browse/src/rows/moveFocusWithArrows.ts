import type { KeyboardEvent } from 'react';

const STEPS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => Math.min(i + 1, last),
  ArrowLeft: (i) => Math.max(i - 1, 0),
  Home: () => 0,
  End: (_i, last) => last,
};

/**
 * Arrow keys, Home and End move between the poster links of a row, as in a carousel; Tab still
 * walks through every link, so nothing is reachable only this way.
 */
export function moveFocusWithArrows(event: KeyboardEvent<HTMLElement>): void {
  const step = STEPS[event.key];
  if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[href]'));
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return;
  const target = links[step(index, links.length - 1)];
  if (!target || target === links[index]) return;
  event.preventDefault();
  target.focus();
  target.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
}
