/**
 * Whether the member asked their system for less motion (prefers-reduced-motion): trailers then
 * wait for Play instead of starting by themselves. Never on the server, which renders no video playing.
 */
export const prefersReducedMotion = (): boolean =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
