import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import type { AuthState } from '@netnet/shared';
import { renderPage, signedIn } from '@netnet/shared/testing';
import { AppRoutes } from './App';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn() }));
const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

const renderAt = (path: string, auth: AuthState) => renderPage(<AppRoutes />, { path, auth });

const member = signedIn('u1');

beforeEach(() => {
  mockedLoadRemote.mockImplementation(async (id: string) => ({ default: () => <h1>{id}</h1> }));
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

it('shows a centred spinner while the auth state loads', () => {
  renderAt('/browse', { status: 'loading' });
  expect(screen.getByRole('status', { name: 'Loading Netnet' })).toBeInTheDocument();
});

it.each([
  ['/', 'remote_auth/Landing', '/'],
  ['/login', 'remote_auth/Login', '/login'],
  ['/browse', 'remote_auth/Landing', '/'],
  ['/title/604', 'remote_auth/Landing', '/'],
  ['/anything/else', 'remote_auth/Landing', '/'],
])('a visitor at %s sees %s', async (path, page, finalPath) => {
  const { where } = renderAt(path, { status: 'anonymous' });
  expect(await screen.findByRole('heading', { name: page })).toBeInTheDocument();
  expect(where().path).toBe(finalPath);
});

it.each([
  ['/', 'remote_browse/Browse', '/browse'],
  ['/login', 'remote_browse/Browse', '/browse'],
  ['/browse', 'remote_browse/Browse', '/browse'],
  ['/movies', 'remote_browse/Movies', '/movies'],
  ['/series', 'remote_browse/Series', '/series'],
  ['/my-list', 'remote_browse/MyList', '/my-list'],
  ['/coming-soon', 'remote_browse/ComingSoon', '/coming-soon'],
  ['/comming-soon', 'remote_browse/ComingSoon', '/coming-soon'],
  ['/downloads', 'remote_browse/Downloads', '/downloads'],
  ['/search', 'remote_search/Search', '/search'],
  ['/title/604', 'remote_title/MovieDetail', '/title/604'],
  ['/tv/1399', 'remote_title/SeriesDetail', '/tv/1399'],
  ['/nowhere', 'remote_browse/Browse', '/browse'],
])('a member at %s sees %s', async (path, page, finalPath) => {
  const { where } = renderAt(path, member);
  expect(await screen.findByRole('heading', { name: page })).toBeInTheDocument();
  expect(where().path).toBe(finalPath);
});

it('uses the home header on /browse, /movies, /series and the back header elsewhere', async () => {
  renderAt('/movies', member);
  const catalogueNav = await screen.findByRole('navigation', { name: 'Catalogue' });
  expect(catalogueNav).toHaveTextContent('SeriesMoviesMy list');
  expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('link', { name: 'Home' }));
  expect(await screen.findByRole('heading', { name: 'remote_browse/Browse' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('link', { name: 'Search' }));
  expect(await screen.findByRole('button', { name: 'Back' })).toBeInTheDocument();
  expect(screen.queryByRole('navigation', { name: 'Catalogue' })).not.toBeInTheDocument();
});

it('marks the active bottom navigation entry', async () => {
  renderAt('/downloads', member);
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  expect(nav.querySelector('[aria-current="page"]')).toHaveTextContent('Downloads');
  expect(screen.getByRole('link', { name: 'Netnet home' })).toHaveAttribute('href', '/browse');
});
