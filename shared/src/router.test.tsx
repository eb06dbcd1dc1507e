import { lazy, Suspense, type ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  Link,
  matchPath,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigating,
  useNavigationType,
  useParams,
  useSearchParams,
} from './router';

function Where() {
  const location = useLocation();
  return (
    <p role="status" aria-label="Where">
      {`${location.pathname}${location.search} ${useNavigationType()} ${JSON.stringify(location.state)}`}
    </p>
  );
}

const where = () => screen.getByRole('status', { name: 'Where' }).textContent;

function Title() {
  return <h1>Title {useParams().id}</h1>;
}

function Layout() {
  return (
    <main>
      <nav aria-label="Main">
        <NavLink to="/browse">Home</NavLink>
        <NavLink to="/search">Search</NavLink>
      </nav>
      <Outlet />
    </main>
  );
}

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      Back
    </button>
  );
}

function Search() {
  const [params, setParams] = useSearchParams();
  return (
    <>
      <h1>Results for {params.get('q')}</h1>
      <button type="button" onClick={() => setParams((current) => (current.set('q', 'more'), current), { replace: true })}>
        More
      </button>
    </>
  );
}

function site(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<Layout />}>
          <Route path="/browse" element={<Link to="/title/604">Open</Link>} />
          <Route path="/title/:id" element={<Title />} />
          <Route path="/title/new" element={<h1>New title</h1>} />
          <Route path="/search" element={<Search />} />
          <Route path="/old" element={<Navigate to="/browse" replace state={{ from: '/old' }} />} />
        </Route>
        <Route path="*" element={<h1>Unknown</h1>} />
      </Routes>
      <Back />
      <Where />
    </MemoryRouter>,
  );
}

describe('the router', () => {
  it('renders the best match inside its layout: a static path beats a param, a param beats the catch-all', () => {
    site('/title/new');
    expect(screen.getByRole('heading', { name: 'New title' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('matches as React Router does: params decoded, any case, a trailing slash', () => {
    site('/TITLE/6%2004/');
    expect(screen.getByRole('heading', { name: 'Title 6 04' })).toBeInTheDocument();
  });

  it('falls to the catch-all outside the layout', () => {
    site('/nowhere');
    expect(screen.getByRole('heading', { name: 'Unknown' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('follows links with a push, marks the link to the page on screen, and goes back with a pop', async () => {
    const user = userEvent.setup();
    site('/browse');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Search' })).not.toHaveAttribute('aria-current');

    await user.click(screen.getByRole('link', { name: 'Open' }));
    expect(screen.getByRole('heading', { name: 'Title 604' })).toBeInTheDocument();
    expect(where()).toBe('/title/604 PUSH null');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(where()).toBe('/browse POP null');
  });

  it('replaces the entry when a link leads where the member already is', async () => {
    const user = userEvent.setup();
    site('/browse');
    await user.click(screen.getByRole('link', { name: 'Home' }));
    expect(where()).toBe('/browse REPLACE null');
  });

  it('redirects with the state it was given', async () => {
    site('/old');
    expect(await screen.findByText('/browse REPLACE {"from":"/old"}')).toBeInTheDocument();
  });

  it('reads and changes the query', async () => {
    const user = userEvent.setup();
    site('/search?q=the');
    expect(screen.getByRole('heading', { name: 'Results for the' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.getByRole('heading', { name: 'Results for more' })).toBeInTheDocument();
    expect(where()).toBe('/search?q=more REPLACE null');
  });

  it('ignores a navigation asked for while rendering, as React Router does', () => {
    function Eager() {
      useNavigate()('/elsewhere');
      return null;
    }
    render(
      <MemoryRouter initialEntries={['/here']}>
        <Eager />
        <Where />
      </MemoryRouter>,
    );
    act(() => {});
    expect(where()).toBe('/here POP null');
  });

  it('keeps the page on screen, marked busy, until the next page is ready', async () => {
    let ready = () => {};
    const arrived = new Promise<{ default: () => ReactElement }>((resolve) => (ready = () => resolve({ default: () => <h1>Slow page</h1> })));
    const Slow = lazy(() => arrived);
    function Busy() {
      return (
        <main aria-busy={useNavigating() || undefined}>
          <Link to="/slow">Slow</Link>
          <Outlet />
        </main>
      );
    }
    render(
      <MemoryRouter initialEntries={['/browse']}>
        <Suspense fallback={<p>Loading</p>}>
          <Routes>
            <Route element={<Busy />}>
              <Route path="/browse" element={<h1>Home</h1>} />
              <Route path="/slow" element={<Slow />} />
            </Route>
          </Routes>
        </Suspense>
      </MemoryRouter>,
    );
    expect(screen.getByRole('main')).not.toHaveAttribute('aria-busy');

    await userEvent.click(screen.getByRole('link', { name: 'Slow' }));
    expect(screen.getByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');

    await act(async () => ready());
    expect(await screen.findByRole('heading', { name: 'Slow page' })).toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveAttribute('aria-busy');
  });
});

describe('matchPath', () => {
  it('gives the params of a matching path, and null otherwise', () => {
    expect(matchPath('/title/:id', '/title/604')?.params).toEqual({ id: '604' });
    expect(matchPath('/title/:id', '/title/604/cast')).toBeNull();
    expect(matchPath('/browse', '/Browse/')).not.toBeNull();
    expect(matchPath('*', '/any/thing')?.params).toEqual({ '*': 'any/thing' });
  });
});
