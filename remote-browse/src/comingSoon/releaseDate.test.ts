import { parseReleaseDate, releaseLabel } from './releaseDate';

describe('releaseLabel', () => {
  it('says when a title arrives, in words', () => {
    expect(releaseLabel('2027-03-12')).toBe('Coming 12 March 2027');
    expect(releaseLabel('2026-12-01')).toBe('Coming 1 December 2026');
  });

  it('admits it does not know rather than showing a wrong date', () => {
    expect(releaseLabel(undefined)).toBe('Release date to be announced');
    expect(releaseLabel('')).toBe('Release date to be announced');
    expect(releaseLabel('2027-02-31')).toBe('Release date to be announced');
    expect(releaseLabel('soon')).toBe('Release date to be announced');
  });
});

describe('parseReleaseDate', () => {
  it('reads the calendar date at UTC midnight, whatever the time zone', () => {
    expect(parseReleaseDate('2027-03-12')?.toISOString()).toBe('2027-03-12T00:00:00.000Z');
  });
});
