// The catalogue client every remote uses: typed calls, a cached and de-duplicated fetch, a hook.
export { catalogue, catalogueUrl, type CatalogueRequest, type SearchScope } from './paths';
export {
  fetchCatalogue,
  fetchCatalogueUrl,
  clearCatalogueCache,
  seedCatalogueCache,
  retryDelay,
  CACHE_TTL_MS,
  CACHE_MAX_ENTRIES,
  TIMEOUT_MS,
  RETRY_AFTER_CAP_MS,
  type FetchCatalogueOptions,
} from './client';
export { CatalogueError, isAbortError, type CatalogueErrorKind } from './error';
export { useCatalogue, type CatalogueState, type CatalogueResult } from './useCatalogue';
export { ServerCatalogueContext, type ServerCatalogue } from './serverRender';
export { imageUrl, type ImageSize } from './images';
