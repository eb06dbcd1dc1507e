import { StrictMode, type ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { fetchCatalogue } from './client';
import { catalogue, type CatalogueRequest } from './paths';
import { useCatalogue } from './useCatalogue';
import { controllableFetch, fakeResponse, scriptedFetch, loadTestRuntimeConfig } from '@netnet/shared/testing';
import type { Page, TitleSummary } from '../types';

const page: Page<TitleSummary> = {
  page: 1,
  results: [{ id: 604, title: 'Featured', poster_path: null, backdrop_path: null, genre_ids: [18], overview: '', vote_average: 7 }],
  total_pages: 1,
  total_results: 1,
};

beforeEach(() => {
  loadTestRuntimeConfig();
});

const strict = ({ children }: { children: ReactNode }) => <StrictMode>{children}</StrictMode>;

describe('useCatalogue', () => {
  it('goes from loading to fetched, with the response type inferred', async () => {
    scriptedFetch(fakeResponse(200, page));
    const { result } = renderHook(() => useCatalogue(catalogue.popular('movie')));
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('fetched'));
    const state = result.current;
    // Compiles only if data is a Page<TitleSummary>.
    if (state.status === 'fetched') expect(state.data.results[0]!.id).toBe(604);
  });

  it('goes to error with a CatalogueError, and retry() asks again', async () => {
    const fetchMock = scriptedFetch(
      fakeResponse(500, { success: false, status_code: 11, status_message: 'Internal error' }),
      fakeResponse(200, page),
    );
    const { result } = renderHook(() => useCatalogue(catalogue.discover('movie', 35)));
    await waitFor(() => expect(result.current.status).toBe('error'));
    const failed = result.current;
    if (failed.status === 'error') expect(failed.error.message).toBe('Internal error');

    act(() => result.current.retry());
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('fetched'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('stays loading without fetching for a null request', async () => {
    const fetchMock = scriptedFetch(fakeResponse(200, page));
    const { result } = renderHook(() => useCatalogue(null));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(result.current.status).toBe('loading');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('aborts its call on unmount', async () => {
    const { calls } = controllableFetch();
    const { unmount } = renderHook(() => useCatalogue(catalogue.details('movie', 604)));
    expect(calls).toHaveLength(1);
    unmount();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('makes one call under StrictMode double effects', async () => {
    const { fetchMock, calls } = controllableFetch();
    const { result } = renderHook(() => useCatalogue(catalogue.details('movie', 604)), { wrapper: strict });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(calls[0]!.signal.aborted).toBe(false);
    await act(async () => calls[0]!.respond(fakeResponse(200, { id: 604, title: 'Featured' })));
    await waitFor(() => expect(result.current.status).toBe('fetched'));
  });

  it('follows a new request and ignores the answer to the old one', async () => {
    const { calls } = controllableFetch();
    const { result, rerender } = renderHook(({ req }: { req: CatalogueRequest<Page<TitleSummary>> }) => useCatalogue(req), {
      initialProps: { req: catalogue.search('harbor') },
    });
    rerender({ req: catalogue.search('garden') });
    expect(result.current.status).toBe('loading');
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(calls[0]!.signal.aborted).toBe(true);
    await act(async () => calls[1]!.respond(fakeResponse(200, page)));
    await waitFor(() => expect(result.current.status).toBe('fetched'));
  });

  it('shows a cached answer at once, without a loading state', async () => {
    scriptedFetch(fakeResponse(200, page));
    await fetchCatalogue(catalogue.popular('tv'));
    const { result } = renderHook(() => useCatalogue(catalogue.popular('tv')));
    expect(result.current.status).toBe('fetched');
  });
});
