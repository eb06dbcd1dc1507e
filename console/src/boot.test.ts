import { firstViewFits, type Boot } from './boot';
import { routeFor } from './route';
import type { Overview, Session } from './types';

const session = { person: 'title-owner', environments: ['production', 'staging'] } as Session;
const boot: Boot = { session, first: { environment: 'production', overview: { environment: 'production' } as Overview } };

describe('which view an address opens', () => {
  it('is every remote of the first environment when the address names none', () => {
    expect(routeFor('', ['production', 'staging'])).toEqual({ page: 'overview', environment: 'production' });
    expect(routeFor('#/staging/remote/remote-title', ['production'])).toEqual({ page: 'remote', environment: 'staging', remote: 'remote-title' });
    expect(routeFor('', [])).toEqual({ page: 'overview', environment: 'local' });
  });
});

describe('the first view the server drew', () => {
  it('is taken over when the address asks for it, named or not', () => {
    expect(firstViewFits(boot, '')).toBe(true);
    expect(firstViewFits(boot, '#/production')).toBe(true);
  });

  it('is drawn again for another view or environment, a sign-in link, or a page without a session', () => {
    expect(firstViewFits(boot, '#/production/audit')).toBe(false);
    expect(firstViewFits(boot, '#/production/remote/remote-title')).toBe(false);
    expect(firstViewFits(boot, '#/staging')).toBe(false);
    expect(firstViewFits(boot, `#sign-in=${'a'.repeat(43)}`)).toBe(false);
    expect(firstViewFits({ session: null, first: null }, '')).toBe(false);
    expect(firstViewFits({ session, first: null }, '')).toBe(false);
    expect(firstViewFits(null, '')).toBe(false);
  });
});
