import { preloadRemote } from '@module-federation/enhanced/runtime';
import { memberPages } from '../pages';
import { asked, warmPath } from './preload';
import { federationName } from './remotes';

// What the shell preloads once the first page is in (boot's afterFirstPage): a chunk of its own,
// so a visitor's first page does not carry it before it is interactive.

const savesData = () => (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;

/** Fetches, without running, the files of the other remotes a member's pages come from. */
export function preloadMemberRemotes(): void {
  if (savesData()) return;
  const exposes = new Map<string, string[]>();
  for (const { remote, module } of memberPages) {
    const name = federationName(remote);
    if (!asked.has(name)) exposes.set(name, [...(exposes.get(name) ?? []), `./${module}`]);
  }
  for (const [nameOrAlias, modules] of exposes) {
    preloadRemote([{ nameOrAlias, exposes: modules, resourceCategory: 'sync' }]).catch(() => {});
  }
}

/** Loads a link's page as soon as the member points at it, focuses it or touches it. */
export function preloadOnIntent(isSignedIn: () => boolean): () => void {
  const onIntent = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    void warmPath(link.pathname, isSignedIn());
  };
  const events = ['pointerover', 'focusin', 'touchstart'] as const;
  for (const type of events) document.addEventListener(type, onIntent, { passive: true });
  return () => events.forEach((type) => document.removeEventListener(type, onIntent));
}
