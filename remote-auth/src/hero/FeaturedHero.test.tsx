import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, type RuntimeConfig, setRuntimeConfig } from '@netnet/shared';
import Landing from '../pages/Landing';
import { fakeAuthActions, renderPages } from '../testing/renderPages';

const featured = {
  id: 604,
  title: 'The Night Signal',
  backdrop_path: '/night-signal.jpg',
  poster_path: '/night-signal-poster.jpg',
  genres: [{ id: 18, name: 'Drama' }],
  overview: '',
  vote_average: 7.1,
};

const backdrop = () => document.querySelector('img');

/** The landing page works whatever the hero is doing. */
function expectTheFormToWork() {
  expect(screen.getByRole('heading', { level: 1, name: 'Unlimited movies, TV shows, and more.' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Get Started' })).toBeEnabled();
}

beforeEach(() => {
  fakeAuthActions();
});

describe('the landing hero', () => {
  it('shows the featured title’s backdrop and name', async () => {
    const { fetchMock } = renderPages('/', { catalogue: featured });

    expect(await screen.findByText('The Night Signal')).toBeInTheDocument();
    expect(screen.getByRole('figure')).toHaveTextContent('Featured: The Night Signal');
    expect(backdrop()).toHaveAttribute('src', 'http://catalogue.test/t/p/w1280/night-signal.jpg');
    expect(backdrop()).toHaveAttribute('alt', '');
    expect(fetchMock).toHaveBeenCalledWith('http://catalogue.test/3/movie/604?language=en-US', expect.anything());
    expectTheFormToWork();
  });

  it('shows a placeholder while the title loads', () => {
    renderPages('/', { catalogue: 'pending' });

    expect(backdrop()).toBeNull();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
    expect(document.querySelector('[aria-busy="true"]')).toBeInTheDocument();
    expectTheFormToWork();
  });

  it('shows a placeholder when the catalogue refuses', async () => {
    const { fetchMock } = renderPages('/', {
      catalogue: { status: 404, body: { success: false, status_code: 34, status_message: 'The resource you requested could not be found.' } },
    });

    expect(fetchMock).toHaveBeenCalled();
    // The placeholder stops pulsing once the answer is in.
    await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
    expect(backdrop()).toBeNull();
    expect(screen.queryByText(/Featured/)).not.toBeInTheDocument();
    expectTheFormToWork();
  });

  it('keeps the name but drops a picture that fails to load', async () => {
    renderPages('/', { catalogue: featured });

    await screen.findByText('The Night Signal');
    fireEvent.error(backdrop()!);

    expect(backdrop()).toBeNull();
    expect(screen.getByText('The Night Signal')).toBeInTheDocument();
  });

  it('has no picture for a title without a backdrop', async () => {
    renderPages('/', { catalogue: { ...featured, backdrop_path: null } });

    expect(await screen.findByText('The Night Signal')).toBeInTheDocument();
    expect(backdrop()).toBeNull();
  });

  it('never takes the page down, even without a runtime config', () => {
    // React reports the error the hero's boundary caught.
    jest.spyOn(console, 'error').mockImplementation(() => {});
    setRuntimeConfig(null as unknown as RuntimeConfig);
    render(
      <MemoryRouter>
        <Landing />
      </MemoryRouter>,
    );

    expect(backdrop()).toBeNull();
    expectTheFormToWork();
  });
});
