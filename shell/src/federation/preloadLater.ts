import { preloadRemote } from '@module-federation/enhanced/runtime';
import { memberPages } from '../pages';
import { asked } from './preload';
import { federationName } from './remotes';

// The member's other remotes, preloaded once the first page is in (boot's afterFirstPage): a chunk
// of its own, so a visitor's first page does not carry it before it is interactive.

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
