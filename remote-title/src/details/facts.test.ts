import { formatRuntime, matchPercent, ratingBadge, releaseYear, runtimeMinutes, spokenRuntime } from './facts';

describe('match percent', () => {
  it.each([
    [7.84, 78],
    [7.85, 79],
    [10, 100],
    [0.04, 0],
  ])('vote average %p is a %p%% match', (average, percent) => {
    expect(matchPercent(average)).toBe(percent);
  });

  it('is left out when the title has no votes', () => {
    expect(matchPercent(0)).toBeNull();
    expect(matchPercent(undefined)).toBeNull();
    expect(matchPercent(Number.NaN)).toBeNull();
  });
});

describe('release year', () => {
  it('takes a movie’s release date and a series’ first air date', () => {
    expect(releaseYear({ release_date: '1999-03-31' }, 'movie')).toBe('1999');
    expect(releaseYear({ first_air_date: '2017-12-01', release_date: '1990-01-01' }, 'tv')).toBe('2017');
  });

  it('is left out when the date is missing or empty', () => {
    expect(releaseYear({ release_date: '' }, 'movie')).toBeNull();
    expect(releaseYear({}, 'tv')).toBeNull();
    expect(releaseYear({ first_air_date: '2017-12-01' }, 'movie')).toBeNull();
  });
});

describe('runtime', () => {
  it.each([
    [125, '2h 5m', '2 hours 5 minutes'],
    [120, '2h', '2 hours'],
    [61, '1h 1m', '1 hour 1 minute'],
    [45, '45m', '45 minutes'],
  ])('%p minutes read %p', (minutes, short, spoken) => {
    expect(formatRuntime(minutes)).toBe(short);
    expect(spokenRuntime(minutes)).toBe(spoken);
  });

  it('comes from a movie’s runtime or a series’ first episode run time', () => {
    expect(runtimeMinutes({ runtime: 98 })).toBe(98);
    expect(runtimeMinutes({ episode_run_time: [52, 60] })).toBe(52);
    expect(runtimeMinutes({ runtime: null, episode_run_time: [] })).toBeNull();
    expect(runtimeMinutes({ runtime: 0 })).toBeNull();
    expect(formatRuntime(null)).toBeNull();
  });
});

describe('rating badge', () => {
  it('shows the certification the data has, else R', () => {
    expect(ratingBadge({ certification: 'PG-13' })).toBe('PG-13');
    expect(ratingBadge({ certification: null })).toBe('R');
    expect(ratingBadge({ certification: '  ' })).toBe('R');
    expect(ratingBadge({})).toBe('R');
  });
});
