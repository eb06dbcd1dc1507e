import { membersGet, planChange } from './format';
import { parseRoute, signInSecret } from './route';

describe('what members will get, as the confirmation says it', () => {
  it('names the canary share and the rest', () => {
    expect(membersGet('remote-title', { stable: '1.4.0', canary: { version: '1.5.0', percent: 20 } })).toBe(
      '20 % of members get remote-title 1.5.0 (the canary); the other 80 % get 1.4.0. Members already in the canary stay in.',
    );
  });

  it('says everyone when there is no canary, or it is at 0 % or 100 %', () => {
    expect(membersGet('remote-title', { stable: '1.4.0' })).toBe('Every member gets remote-title 1.4.0.');
    expect(membersGet('remote-title', { stable: '1.4.0', canary: { version: '1.5.0', percent: 0 } })).toBe('Every member gets remote-title 1.4.0.');
    expect(membersGet('remote-title', { stable: '1.4.0', canary: { version: '1.5.0', percent: 100 } })).toBe('Every member gets remote-title 1.5.0 (the canary).');
    expect(membersGet('remote-title', null)).toBe('Members get remote-title from its own build.');
  });

  it('describes what changed between two plans', () => {
    expect(planChange({ stable: '1.4.0', canary: { version: '1.5.0', percent: 10 } }, { stable: '1.4.0', canary: { version: '1.5.0', percent: 30 } })).toBe(
      'stable 1.4.0, canary 1.5.0 at 10 % → stable 1.4.0, canary 1.5.0 at 30 %',
    );
    expect(planChange({ stable: '1.4.0' }, { stable: '1.4.0' })).toBe('still stable 1.4.0, no canary');
  });
});

describe('the console address', () => {
  it('reads the view from the fragment', () => {
    expect(parseRoute('#/production')).toEqual({ page: 'overview', environment: 'production' });
    expect(parseRoute('#/production/remote/remote-title')).toEqual({ page: 'remote', environment: 'production', remote: 'remote-title' });
    expect(parseRoute('#/production/audit?remote=remote-title&actor=person%3Aana')).toEqual({ page: 'audit', environment: 'production', remote: 'remote-title', actor: 'person:ana' });
  });

  it('never takes a sign-in link or a malformed name for an environment', () => {
    const secret = 'a'.repeat(43);
    expect(signInSecret(`#sign-in=${secret}`)).toBe(secret);
    expect(parseRoute(`#sign-in=${secret}`)).toEqual({ page: 'none' });
    expect(parseRoute('#/Not An Environment')).toEqual({ page: 'none' });
    expect(parseRoute('')).toEqual({ page: 'none' });
  });
});
