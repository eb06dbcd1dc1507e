import { initialTrailer, pickTrailer, showsPoster, trailerReducer, type TrailerEvent, type TrailerState } from './trailerState';

const video = (site: string, key: string, url?: string) => ({ id: key, key, name: key, site, type: 'Trailer', url });
const run = (...events: TrailerEvent[]): TrailerState => events.reduce(trailerReducer, initialTrailer);
const clip = { kind: 'file', url: 'http://localhost:7070/media/demo-clip.mp4' } as const;

describe('picking the trailer', () => {
  it('takes the first YouTube video', () => {
    expect(pickTrailer([video('Vimeo', 'v1'), video('YouTube', 'yt1'), video('YouTube', 'yt2')])).toEqual({
      kind: 'youtube',
      key: 'yt1',
    });
  });

  it('takes the self-hosted clip when there is no YouTube video', () => {
    expect(pickTrailer([video('Netnet', 'demo-clip', clip.url)])).toEqual(clip);
  });

  it('has nothing to play without videos, or with unusable ones', () => {
    expect(pickTrailer([])).toBeNull();
    expect(pickTrailer(undefined)).toBeNull();
    expect(pickTrailer([video('Vimeo', 'v1'), video('Netnet', 'no-url'), video('Netnet', 'x', 'javascript:alert(1)')])).toBeNull();
  });
});

describe('the trailer', () => {
  it('starts muted and playing, behind the poster until the videos are known', () => {
    expect(initialTrailer).toMatchObject({ stage: 'waiting', muted: true, playing: true });
    expect(showsPoster(initialTrailer)).toBe(true);
  });

  it('waits for Play when the member prefers reduced motion', () => {
    const still = run({ type: 'videos', source: clip, still: true });
    expect(still).toMatchObject({ stage: 'video', playing: false });
    expect(trailerReducer(still, { type: 'togglePlay' }).playing).toBe(true);
  });

  it('shows the poster until the player has a picture', () => {
    const loaded = run({ type: 'videos', source: clip });
    expect(loaded.stage).toBe('video');
    expect(showsPoster(loaded)).toBe(true);
    expect(showsPoster(trailerReducer(loaded, { type: 'ready' }))).toBe(false);
  });

  it('toggles play and mute independently', () => {
    const ready = run({ type: 'videos', source: clip }, { type: 'ready' });
    const paused = trailerReducer(ready, { type: 'togglePlay' });
    expect(paused).toMatchObject({ playing: false, muted: true });
    const unmuted = trailerReducer(paused, { type: 'toggleMute' });
    expect(unmuted).toMatchObject({ playing: false, muted: false });
    expect(trailerReducer(unmuted, { type: 'togglePlay' })).toMatchObject({ playing: true, muted: false });
  });

  it('follows a pause and a play that come from the player', () => {
    const ready = run({ type: 'videos', source: clip }, { type: 'ready' });
    const paused = trailerReducer(ready, { type: 'paused' });
    expect(paused.playing).toBe(false);
    expect(trailerReducer(paused, { type: 'played' }).playing).toBe(true);
  });

  it('restarts from the Play button, playing again', () => {
    const paused = run({ type: 'videos', source: clip }, { type: 'ready' }, { type: 'togglePlay' });
    const restarted = trailerReducer(paused, { type: 'restart' });
    expect(restarted).toMatchObject({ playing: true, restarts: 1 });
  });

  it.each<[string, TrailerEvent[]]>([
    ['there is no video', [{ type: 'videos', source: null }]],
    ['the videos call fails', [{ type: 'videosFailed' }]],
    ['the player fails before it is ready', [{ type: 'videos', source: { kind: 'youtube', key: 'k' } }, { type: 'failed' }]],
    ['the player fails while playing', [{ type: 'videos', source: clip }, { type: 'ready' }, { type: 'failed' }]],
  ])('falls back to the poster when %s', (_, events) => {
    const state = run(...events);
    expect(state.stage).toBe('poster');
    expect(showsPoster(state)).toBe(true);
  });

  it('ignores controls while only the poster shows', () => {
    const poster = run({ type: 'videos', source: null });
    for (const type of ['togglePlay', 'toggleMute', 'ready', 'paused', 'played', 'restart'] as const) {
      expect(trailerReducer(poster, { type })).toBe(poster);
    }
  });
});
