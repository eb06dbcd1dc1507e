import { routeFor } from './route';

// Where an address takes a person whose token covers production and staging.

const environments = ['production', 'staging'];

it.each([
  ['', { page: 'overview', environment: 'production' }],
  ['#/staging', { page: 'overview', environment: 'staging' }],
  ['#/staging/audit?remote=remote-title', { page: 'audit', environment: 'staging', remote: 'remote-title', actor: '' }],
  ['#/staging/remote/remote-title', { page: 'remote', environment: 'staging', remote: 'remote-title' }],
  // A view without its environment: that view of the first environment.
  ['#/audit', { page: 'audit', environment: 'production', remote: '', actor: '' }],
  ['#/audit?actor=person%3Aa', { page: 'audit', environment: 'production', remote: '', actor: 'person:a' }],
  ['#/remote/remote-title', { page: 'remote', environment: 'production', remote: 'remote-title' }],
  // Another environment stays what it names (the console then says whether the token covers it).
  ['#/qa', { page: 'overview', environment: 'qa' }],
])('%s opens %j', (hash, route) => {
  expect(routeFor(hash, environments)).toEqual(route);
});

it('reads an environment named like a view as that environment', () => {
  expect(routeFor('#/audit', ['audit', 'production'])).toEqual({ page: 'overview', environment: 'audit' });
});
