/**
 * @jest-environment node
 */
import { matchPath, pageList } from '@netnet/shared';
import { memberPages, pageAt } from '../pages';
import { compilePath, compileRoutes } from './routes';

// The server's compiled matcher must give React Router's answers (the browser's router decides
// what hydrates), for every path of the page table and for the odd ones people and tools send.

const PATHS = [
  '/', '//', '/login', '/login/', '/LOGIN', '/login/x', '/loginx', '/browse', '/Browse/', '/movies', '/series',
  '/my-list', '/my-list//', '/coming-soon', '/downloads', '/search', '/search/', '/title/604', '/title/604/',
  '/title/', '/title', '/title/604/cast', '/TITLE/abc', '/title/%2e%2e', '/title/a.b', '/tv/1399', '/tv/', '/tv/x/y',
  '/nothing', '/browse.json', '/index.html', '/%F0%9F%8E%AC', '/title/604?x=1',
];

describe('compileRoutes', () => {
  const routes = compileRoutes();

  it.each(pageList.map((page) => [page.path, page] as const))('%s matches exactly where matchPath does', (_, page) => {
    for (const pathname of PATHS) expect([pathname, routes.shows(page, pathname)]).toEqual([pathname, matchPath(page.path, pathname) !== null]);
  });

  it('picks the page pageAt picks, for visitors and members', () => {
    for (const pathname of PATHS) {
      for (const signedIn of [false, true]) expect([pathname, signedIn, routes.pageAt(pathname, signedIn).path]).toEqual([pathname, signedIn, pageAt(pathname, signedIn).path]);
    }
  });

  it('knows the members’ paths', () => {
    for (const pathname of PATHS) expect([pathname, routes.isMemberPath(pathname)]).toEqual([pathname, memberPages.some((page) => matchPath(page.path, pathname) !== null)]);
  });

  it('refuses a path form it cannot match as React Router does, rather than disagree with it', () => {
    expect(() => compilePath('/files/*')).toThrow(/form the server's matcher does not know/);
    expect(() => compilePath('/title/:id?')).toThrow();
  });
});
