// The one test kit every workspace uses (`@netnet/shared/testing`): never part of the runtime
// singleton, imported by tests only. It reaches the contract as '@netnet/shared', like an app.
export { CATALOGUE_URL, testRuntimeConfig, loadTestRuntimeConfig } from './runtimeConfig';
export { fakeResponse, abortError } from './fakeResponse';
export { controllableFetch, scriptedFetch } from './fakeFetch';
export {
  fakeCatalogue,
  catalogueKey,
  notFound,
  type Answer,
  type Answerer,
  type CatalogueAnswers,
  type Failure,
} from './fakeCatalogue';
export { page, summary } from './tmdb';
export { deferred } from './deferred';
export { busyIndexedDB, freshIndexedDB, withoutIndexedDB } from './indexedDB';
export { newMemberId, signedIn, anonymous } from './member';
export { renderPage, type RenderPageOptions } from './render';
