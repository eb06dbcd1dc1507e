import { StrictMode } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from '@netnet/shared';
import Search from './Search';
import { type Answer, deferred, fakeCatalogue, page, summary } from '@netnet/shared/testing';

/** The catalogue answers each search by its query, and may wait. */
const stubSearch = (answer: (query: string) => Answer | Promise<Answer>) =>
  fakeCatalogue((url) => answer(url.searchParams.get('query') ?? ''));

const harbor = summary({ id: 10, media_type: 'movie', title: 'The Silent Harbor', backdrop_path: '/harbor.svg', release_date: '2019-04-02' });
const nightShift = summary({ id: 20, media_type: 'tv', name: 'Night Shift', backdrop_path: '/night.svg', first_air_date: '2021-01-09' });
const noBackdrop = summary({ id: 30, media_type: 'movie', title: 'Blank Harbor', backdrop_path: null });
const person = summary({ id: 40, media_type: 'person', name: 'Harbor Actor' });

/** What the shell gives the page: a router, the address and the back/forward of the browser. */
function Browser() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="Address">{location.pathname + location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
      <button type="button" onClick={() => void navigate(1)}>
        Forward
      </button>
    </>
  );
}

function renderAt(url: string) {
  const user = userEvent.setup();
  render(
    <StrictMode>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/search" element={<Search />} />
          <Route path="/title/:id" element={<h1>Movie page</h1>} />
          <Route path="/tv/:id" element={<h1>Series page</h1>} />
        </Routes>
        <Browser />
      </MemoryRouter>
    </StrictMode>,
  );
  return user;
}

const box = () => screen.getByRole('searchbox', { name: 'Search titles' });
const address = () => screen.getByRole('status', { name: 'Address' }).textContent;
const resultsHeading = (query: string) => screen.findByRole('heading', { level: 2, name: `${query} results:` });

async function search(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(box());
  await user.paste(text);
  await user.keyboard('{Enter}');
}

afterEach(() => {
  delete (global as { fetch?: unknown }).fetch;
});

describe('the search page', () => {
  it('starts idle: one h1 and a labelled search box in a search form, ready to type, asking nothing', () => {
    const catalogue = stubSearch(() => page([]));
    renderAt('/search');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(within(screen.getByRole('search')).getByRole('searchbox')).toBe(box());
    expect(box()).toHaveAttribute('placeholder', 'Search for a series, a movie, a genre, etc.');
    expect(box()).toHaveFocus();
    expect(screen.getByText(/Find movies and series by name/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(catalogue.fetchMock).not.toHaveBeenCalled();
  });

  it('on Enter: puts the query in the URL, clears the box, shows Loading..., then the results', async () => {
    const answer = deferred<Answer>();
    const catalogue = stubSearch(() => answer.promise);
    const user = renderAt('/search');

    await search(user, 'harbor');
    expect(address()).toBe('/search?q=harbor');
    expect(box()).toHaveValue('');
    expect(await resultsHeading('harbor')).toBeInTheDocument();
    expect(screen.getByText('Loading...')).toBeInTheDocument();

    const [url] = catalogue.urls();
    expect(`${url!.origin}${url!.pathname}`).toBe('http://catalogue.test/3/search/multi');
    expect(url!.searchParams.get('query')).toBe('harbor');
    expect(url!.searchParams.get('page')).toBe('1');

    answer.resolve(page([harbor]));
    expect(await screen.findByRole('link', { name: 'The Silent Harbor' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('shows movies and series with backdrop and name, linked by type, and drops people and titles without a backdrop', async () => {
    stubSearch(() => page([harbor, person, noBackdrop, nightShift]));
    const user = renderAt('/search?q=harbor');

    const movie = await screen.findByRole('link', { name: 'The Silent Harbor' });
    const series = screen.getByRole('link', { name: 'Night Shift' });
    expect(movie).toHaveAttribute('href', '/title/10');
    expect(series).toHaveAttribute('href', '/tv/20');
    expect(movie).toHaveAccessibleDescription('Movie · 2019');
    expect(series).toHaveAccessibleDescription('Series · 2021');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByText('Blank Harbor')).not.toBeInTheDocument();
    expect(screen.queryByText('Harbor Actor')).not.toBeInTheDocument();

    const image = within(movie).getByRole('img', { name: 'The Silent Harbor' });
    expect(image).toHaveAttribute('src', 'http://catalogue.test/t/p/w500/harbor.svg');
    // The first results are on screen as the page opens: they load first.
    expect(image).toHaveAttribute('loading', 'eager');
    expect(image).toHaveAttribute('fetchpriority', 'high');
    expect(image).toHaveAttribute('width', '500');
    expect(image).toHaveAttribute('height', '281');
    // The artwork carries the name: it is not written a second time under it.
    expect(within(movie).queryByText('The Silent Harbor')).not.toBeInTheDocument();

    await user.click(series);
    expect(screen.getByRole('heading', { name: 'Series page' })).toBeInTheDocument();
    expect(address()).toBe('/tv/20');
  });

  it('loads the images on screen as the page opens first, the first row with priority, and the rest lazily', async () => {
    const hits = Array.from({ length: 8 }, (_, i) =>
      summary({ id: 100 + i, media_type: 'movie', title: `Harbor ${i}`, backdrop_path: `/h${i}.svg` }),
    );
    stubSearch(() => page(hits));
    renderAt('/search?q=harbor');

    await screen.findByRole('link', { name: 'Harbor 0' });
    const images = hits.map((_, i) => screen.getByRole('img', { name: `Harbor ${i}` }));
    expect(images.map((image) => image.getAttribute('loading'))).toEqual(['eager', 'eager', 'eager', 'eager', 'eager', 'eager', 'lazy', 'lazy']);
    expect(images.map((image) => image.getAttribute('fetchpriority'))).toEqual(['high', 'high', 'auto', 'auto', 'auto', 'auto', 'low', 'low']);
  });

  it("says 'Nada' when nothing comes back, or nothing that can be shown", async () => {
    stubSearch((query) => (query === 'zzz' ? page([]) : page([person, noBackdrop])));
    const user = renderAt('/search?q=zzz');
    expect(await screen.findByText('Nada')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();

    await search(user, 'harbor');
    expect(await resultsHeading('harbor')).toBeInTheDocument();
    expect(await screen.findByText('Nada')).toBeInTheDocument();
  });

  it('shows a readable error with a Retry that asks again', async () => {
    const answers: Answer[] = [
      { status: 503, body: { success: false, status_code: 43, status_message: 'The catalogue is resting.' } },
      page([harbor]),
    ];
    const catalogue = stubSearch(() => answers.shift()!);
    const user = renderAt('/search?q=harbor');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong while searching.');
    expect(alert).toHaveTextContent('The catalogue is resting.');
    expect(screen.queryByText('Nada')).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'The Silent Harbor' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(catalogue.fetchMock).toHaveBeenCalledTimes(2);
  });

  it('also shows the error when the catalogue cannot be reached', async () => {
    stubSearch(() => new TypeError('Failed to fetch'));
    renderAt('/search?q=harbor');
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be reached');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('the query in the URL', () => {
  it('drives the page: a shared link shows its results, with the box left empty', async () => {
    const catalogue = stubSearch(() => page([nightShift]));
    renderAt('/search?q=night%20shift');
    expect(await resultsHeading('night shift')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Night Shift' })).toBeInTheDocument();
    expect(box()).toHaveValue('');
    expect(box()).not.toHaveFocus();
    expect(catalogue.urls()[0]!.searchParams.get('query')).toBe('night shift');
  });

  it('makes each search a history entry, so back and forward show earlier results', async () => {
    stubSearch((query) => page(query === 'harbor' ? [harbor] : [nightShift]));
    const user = renderAt('/search');
    await search(user, 'harbor');
    expect(await screen.findByRole('link', { name: 'The Silent Harbor' })).toBeInTheDocument();
    await search(user, 'night');
    expect(await screen.findByRole('link', { name: 'Night Shift' })).toBeInTheDocument();
    // Searching again for what is on screen adds no entry.
    await search(user, 'night');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(address()).toBe('/search?q=harbor');
    expect(await resultsHeading('harbor')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'The Silent Harbor' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Forward' }));
    expect(address()).toBe('/search?q=night');
    expect(await screen.findByRole('link', { name: 'Night Shift' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(address()).toBe('/search');
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
  });

  it('is cleaned in place: whitespace collapsed, unicode composed, 10,000 characters cut to 100', async () => {
    const catalogue = stubSearch(() => page([]));
    renderAt(`/search?q=${encodeURIComponent('  Ame\u0301lie \n  ')}`);
    expect(await resultsHeading('Am\u00e9lie')).toBeInTheDocument();
    expect(address()).toBe(`/search?q=${encodeURIComponent('Am\u00e9lie')}`);
    expect(catalogue.urls().map((url) => url.searchParams.get('query'))).toEqual(['Am\u00e9lie']);
  });

  it('cuts a 10,000-character link to 100 characters', async () => {
    const catalogue = stubSearch(() => page([]));
    renderAt(`/search?q=${'x'.repeat(10_000)}`);
    expect(await resultsHeading('x'.repeat(100))).toBeInTheDocument();
    expect(address()).toBe(`/search?q=${'x'.repeat(100)}`);
    expect(catalogue.urls().every((url) => url.searchParams.get('query') === 'x'.repeat(100))).toBe(true);
  });

  it('treats a blank q as no query', () => {
    const catalogue = stubSearch(() => page([]));
    renderAt('/search?q=%20%20');
    expect(address()).toBe('/search');
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(catalogue.fetchMock).not.toHaveBeenCalled();
  });
});

describe('what the member types', () => {
  it('an empty or blank query goes nowhere and gets a gentle hint, which typing dismisses', async () => {
    const catalogue = stubSearch(() => page([]));
    const user = renderAt('/search');
    await user.keyboard('{Enter}');
    await search(user, '   \t ');
    expect(address()).toBe('/search');
    expect(screen.getByText('Type the name of a movie, a series or a genre.')).toBeInTheDocument();
    expect(box()).toHaveAccessibleDescription('Type the name of a movie, a series or a genre.');
    expect(catalogue.fetchMock).not.toHaveBeenCalled();

    await user.type(box(), 'h');
    expect(screen.queryByText('Type the name of a movie, a series or a genre.')).not.toBeInTheDocument();
  });

  it('a pasted 10,000-character query is cut to 100 characters', async () => {
    stubSearch(() => page([]));
    const user = renderAt('/search');
    await search(user, `   ${'y'.repeat(10_000)}`);
    expect(address()).toBe(`/search?q=${'y'.repeat(100)}`);
    expect(await resultsHeading('y'.repeat(100))).toBeInTheDocument();
  });

  it('markup is shown as text, never turned into elements', async () => {
    const catalogue = stubSearch(() => page([]));
    const user = renderAt('/search');
    const payload = '<img src=x onerror=alert(1)>';
    await search(user, payload);
    expect(await resultsHeading(payload)).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
    expect(catalogue.urls()[0]!.searchParams.get('query')).toBe(payload);
  });

  it('the search button submits too, and the results follow it in tab order', async () => {
    stubSearch(() => page([harbor, nightShift]));
    const user = renderAt('/search');
    await user.type(box(), 'harbor');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(address()).toBe('/search?q=harbor');
    await screen.findByRole('link', { name: 'The Silent Harbor' });

    await user.click(box());
    await user.tab();
    expect(screen.getByRole('button', { name: 'Search' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'The Silent Harbor' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Night Shift' })).toHaveFocus();
  });
});
