import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { type AuthState, useLocation } from '@netnet/shared';
import { renderPage, signedIn } from '@netnet/shared/testing';
import { AppRoutes } from './App';
import { forgetReturnTo, startLeaving } from './auth/returnTo';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn() }));
const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

const renderAt = (path: string, auth: AuthState) => renderPage(<AppRoutes />, { path, auth });

const member = signedIn('u1');

afterEach(forgetReturnTo);

/** A page that shows its heading and the state its navigation carried (the guard's `from`). */
function PageWithState({ id }: { id: string }) {
  const { state } = useLocation();
  return (
    <>
      <h1>{id}</h1>
      <output aria-label="Navigation state">{JSON.stringify(state)}</output>
    </>
  );
}

beforeEach(() => {
  mockedLoadRemote.mockImplementation(async (id: string) => ({ default: () => <PageWithState id={id} /> }));
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

const navigationState = () => screen.getByRole('status', { name: 'Navigation state' }).textContent;

it('shows a centred spinner and a level-one heading while the auth state loads', () => {
  renderAt('/browse', { status: 'loading' });
  expect(screen.getByRole('status', { name: 'Loading Netnet' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Loading Netnet');
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
  // The sections are drawn twice, in the header (desktop) and the bottom bar (phones); CSS shows one.
  const [inHeader, atBottom] = screen.getAllByRole('navigation', { name: 'Main' });
  expect(within(screen.getByRole('banner')).getByRole('navigation', { name: 'Main' })).toBe(inHeader);
  expect(atBottom).not.toBe(inHeader);
  await userEvent.click(within(inHeader!).getByRole('link', { name: 'Home' }));
  expect(await screen.findByRole('heading', { name: 'remote_browse/Browse' })).toBeInTheDocument();
  await userEvent.click(within(screen.getAllByRole('navigation', { name: 'Main' })[1]!).getByRole('link', { name: 'Search' }));
  expect(await screen.findByRole('button', { name: 'Back' })).toBeInTheDocument();
  expect(screen.queryByRole('navigation', { name: 'Catalogue' })).not.toBeInTheDocument();
});

it('marks the active section in both its places', async () => {
  renderAt('/downloads', member);
  const navs = await screen.findAllByRole('navigation', { name: 'Main' });
  expect(navs).toHaveLength(2);
  for (const nav of navs) expect(nav.querySelector('[aria-current="page"]')).toHaveTextContent('Downloads');
  expect(screen.getByRole('link', { name: 'Netnet home' })).toHaveAttribute('href', '/browse');
});

describe('the page to return to', () => {
  it('takes a visitor sent away from a deep link on to it once signed in, once, at the top of the page', async () => {
    const { where, setAuth } = renderAt('/tv/5506?play=1', { status: 'anonymous' });
    expect(await screen.findByRole('heading', { name: 'remote_auth/Landing' })).toBeInTheDocument();
    expect(where().path).toBe('/');
    // The landing page is told which link is kept, so it can say so.
    expect(navigationState()).toBe(JSON.stringify({ from: '/tv/5506?play=1' }));
    setAuth(member);
    expect(await screen.findByRole('heading', { name: 'remote_title/SeriesDetail' })).toBeInTheDocument();
    expect(where()).toEqual({ path: '/tv/5506?play=1', navigationType: 'REPLACE' });
    expect(sessionStorage.getItem('netnet:return-to')).toBeNull();
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('tells the landing page of no kept link when a visitor asks for / or an unknown path', async () => {
    renderAt('/anything/else', { status: 'anonymous' });
    expect(await screen.findByRole('heading', { name: 'remote_auth/Landing' })).toBeInTheDocument();
    expect(navigationState()).toBe('null');
    expect(sessionStorage.getItem('netnet:return-to')).toBeNull();
  });

  it('survives the way through /login (Sign In, ?email=)', async () => {
    renderAt('/title/604', { status: 'anonymous' });
    expect(await screen.findByRole('heading', { name: 'remote_auth/Landing' })).toBeInTheDocument();
    const later = renderAt('/login?email=ann%40example.com', { status: 'anonymous' });
    later.setAuth(member);
    expect(await screen.findByRole('heading', { name: 'remote_title/MovieDetail' })).toBeInTheDocument();
    expect(later.where().path).toBe('/title/604');
  });

  it('is not the page a member signed out from: the next member starts on /browse', async () => {
    const { where, setAuth } = renderAt('/search?q=secret', member);
    expect(await screen.findByRole('heading', { name: 'remote_search/Search' })).toBeInTheDocument();
    startLeaving();
    setAuth({ status: 'anonymous' });
    expect(await screen.findByRole('heading', { name: 'remote_auth/Landing' })).toBeInTheDocument();
    // Nor does the landing page say a link is kept.
    expect(navigationState()).toBe('null');
    setAuth(signedIn('u2'));
    expect(await screen.findByRole('heading', { name: 'remote_browse/Browse' })).toBeInTheDocument();
    expect(where().path).toBe('/browse');
  });
});

describe('a path that is no page', () => {
  it('takes a member to /browse and says the page could not be found', async () => {
    const { where } = renderAt('/nosuchpage', member);
    expect(await screen.findByRole('heading', { name: 'remote_browse/Browse' })).toBeInTheDocument();
    expect(await screen.findByText('We couldn’t find that page. Here’s what’s on instead.')).toBeInTheDocument();
    expect(where()).toEqual({ path: '/browse', navigationType: 'REPLACE' });
    // Said once: the history entry no longer carries it, so a reload would not say it again.
    expect(navigationState()).toBe('null');
  });
});
