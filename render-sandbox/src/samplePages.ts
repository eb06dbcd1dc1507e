import { pageList, type RemoteName } from '@netnet/shared/pages';
import type { AreaAuth } from './protocol.ts';

// Each page of a remote as a member or visitor would open it, with catalogue ids its fixtures
// hold: what a render process renders once before its first member, and what a release's check
// renders at publish time. A page's key is its federation key, as the shell names it.

const MOVIE_ID = '604';
const SERIES_ID = '5506';

export interface SamplePage {
  module: string;
  key: string;
  path: string;
  location: { pathname: string; search: string };
  auth: AreaAuth;
}

export function samplePages(remote: RemoteName): SamplePage[] {
  return pageList
    .filter((page) => page.remote === remote)
    .map((page) => ({
      module: page.module,
      key: `${page.remote.replace(/-/g, '_')}/${page.module}`,
      path: page.path,
      location: { pathname: page.path.replace(/:[A-Za-z]+/g, page.path.startsWith('/tv/') ? SERIES_ID : MOVIE_ID), search: '' },
      auth: page.audience === 'member' ? { status: 'authenticated', member: { uid: 'sample-member', email: null } } : { status: 'anonymous' },
    }));
}
