// What a server render needs from the contract (docs/architecture.md#server-rendering): the
// router for one request, and the record of the catalogue calls a page makes. A separate entry
// point (`@netnet/shared/server`): the shell's server build imports it; no browser bundle does.
export { StaticRouter } from '@netnet/shared';
export { createServerCatalogue, type RequestCatalogue } from './requestCatalogue';
