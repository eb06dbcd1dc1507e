import { createContext } from 'react';
import type { CatalogueState } from './useCatalogue';

// The catalogue as a server render sees it (docs/architecture.md#server-rendering): a per-request
// record of the calls the page makes. Only the context lives here, in the singleton, so the
// shell's server and every remote's server build reach the same one; the record itself is in
// `@netnet/shared/server`, which no browser loads.

/** One request's catalogue: answers a URL at once, or with a promise the render waits for. */
export interface ServerCatalogue {
  read<T>(url: string): CatalogueState<T> | Promise<CatalogueState<T>>;
}

export const ServerCatalogueContext = createContext<ServerCatalogue | null>(null);
