/**
 * @jest-environment node
 */
import { catalogue, catalogueUrl, type CatalogueState } from '@netnet/shared';
import { createServerCatalogue } from '@netnet/shared/server';
import { deferred, fakeCatalogue, notFound, type Answer } from '@netnet/shared/testing';

// The server's record of one page request's catalogue calls: what the render waits for, and what
// it hands to the browser so nothing is fetched twice.

const MOVIE = { id: 604, title: 'The Matrix Reloaded' };
const CREDITS = { id: 604, cast: [], crew: [] };
const movieUrl = () => catalogueUrl(catalogue.details('movie', 604));
const creditsUrl = () => catalogueUrl(catalogue.credits('movie', 604));
const videosUrl = () => catalogueUrl(catalogue.videos('movie', 604));

const LOADING = { status: 'loading' };

/** The state a read gives, whether at once or after the render has waited for it. */
const settle = <T,>(answer: CatalogueState<T> | Promise<CatalogueState<T>>) => Promise.resolve(answer);

it('answers a first read with a promise, then with the fetched state at once', async () => {
  const { fetchMock } = fakeCatalogue({ 'movie/604': MOVIE });
  const record = createServerCatalogue(new AbortController().signal);

  const first = record.read(movieUrl());
  expect(first).toBeInstanceOf(Promise);
  await expect(first).resolves.toEqual({ status: 'fetched', data: MOVIE });

  // React reads again after the promise settles: now the state itself, no promise, no new call.
  expect(record.read(movieUrl())).toEqual({ status: 'fetched', data: MOVIE });
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

it('reads of one URL while it is in flight share one promise and one call', async () => {
  const { fetchMock } = fakeCatalogue({ 'movie/604': MOVIE });
  const record = createServerCatalogue(new AbortController().signal);
  const first = record.read(movieUrl());
  const second = record.read(movieUrl());
  expect(second).toBe(first);
  await first;
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

it('lists the answers the render used, by URL, and nothing else', async () => {
  fakeCatalogue({ 'movie/604': MOVIE, 'movie/604/credits': CREDITS });
  const record = createServerCatalogue(new AbortController().signal);
  expect(record.answers()).toEqual({});
  await settle(record.read(movieUrl()));
  await settle(record.read(creditsUrl()));
  expect(record.answers()).toEqual({ [movieUrl()]: MOVIE, [creditsUrl()]: CREDITS });
});

it('a call that fails reads as loading, for the browser to make again, and is not handed over', async () => {
  fakeCatalogue({ 'movie/604': MOVIE, 'movie/604/credits': notFound, 'movie/604/videos': new TypeError('fetch failed') });
  const record = createServerCatalogue(new AbortController().signal);
  await expect(settle(record.read(creditsUrl()))).resolves.toEqual(LOADING);
  await expect(settle(record.read(videosUrl()))).resolves.toEqual(LOADING);
  await settle(record.read(movieUrl()));
  expect(record.read(creditsUrl())).toEqual(LOADING);
  expect(record.answers()).toEqual({ [movieUrl()]: MOVIE });
});

it('a call still pending when the render’s time is up reads as loading, even if it answers later', async () => {
  const late = deferred<Answer>();
  fakeCatalogue((url) => (url.pathname.endsWith('/credits') ? late.promise : MOVIE));
  const budget = new AbortController();
  const record = createServerCatalogue(budget.signal);

  await settle(record.read(movieUrl()));
  const pending = record.read(creditsUrl());
  expect(pending).toBeInstanceOf(Promise);
  budget.abort();
  await expect(pending).resolves.toEqual(LOADING);

  late.resolve(CREDITS);
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(record.read(creditsUrl())).toEqual(LOADING);
  expect(record.answers()).toEqual({ [movieUrl()]: MOVIE });
});

it('once the time is up, a call not asked yet is not made: it reads as loading at once', async () => {
  const { fetchMock } = fakeCatalogue({ 'movie/604': MOVIE });
  const budget = new AbortController();
  const record = createServerCatalogue(budget.signal);
  budget.abort();
  expect(record.read(movieUrl())).toEqual(LOADING);
  expect(fetchMock).not.toHaveBeenCalled();
  expect(record.answers()).toEqual({});

  const already = new AbortController();
  already.abort();
  expect(createServerCatalogue(already.signal).read(movieUrl())).toEqual(LOADING);
  expect(fetchMock).not.toHaveBeenCalled();
});

it('stopWaiting gives up on the calls in flight like the end of the budget does', async () => {
  const { fetchMock } = fakeCatalogue({ 'movie/604': 'pending' });
  const request = new AbortController();
  const record = createServerCatalogue(request.signal);
  const pending = record.read(movieUrl());
  record.stopWaiting();
  await expect(pending).resolves.toEqual(LOADING);
  expect(record.read(creditsUrl())).toEqual(LOADING);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(record.answers()).toEqual({});
  // The request ends: its call in flight is cancelled, and nothing is left running.
  request.abort();
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect((fetchMock.mock.calls[0]![1] as RequestInit).signal!.aborted).toBe(true);
});

it('each request has its own record, and a URL another request fetched is not fetched again', async () => {
  const { fetchMock } = fakeCatalogue({ 'movie/604': MOVIE, 'movie/604/credits': CREDITS });
  const first = createServerCatalogue(new AbortController().signal);
  await settle(first.read(movieUrl()));
  const second = createServerCatalogue(new AbortController().signal);
  await expect(settle(second.read(movieUrl()))).resolves.toEqual({ status: 'fetched', data: MOVIE });
  await settle(second.read(creditsUrl()));
  expect(first.answers()).toEqual({ [movieUrl()]: MOVIE });
  expect(second.answers()).toEqual({ [movieUrl()]: MOVIE, [creditsUrl()]: CREDITS });
  expect(fetchMock).toHaveBeenCalledTimes(2);
});
