import { loadYouTubeApi, YOUTUBE_API_URL, type YouTubeNamespace } from './youtubeApi';

const script = () => document.head.querySelector<HTMLScriptElement>(`script[src="${YOUTUBE_API_URL}"]`);

afterEach(() => {
  delete window.YT;
  delete window.onYouTubeIframeAPIReady;
  script()?.remove();
});

it('adds the player script only when asked, and resolves when YouTube says it is ready', async () => {
  expect(script()).toBeNull();
  const loaded = loadYouTubeApi();
  expect(script()).not.toBeNull();
  const api = { Player: jest.fn(), PlayerState: { ENDED: 0, PLAYING: 1, PAUSED: 2 } } as unknown as YouTubeNamespace;
  window.YT = api;
  window.onYouTubeIframeAPIReady?.();
  await expect(loaded).resolves.toBe(api);
});

it('rejects when the script cannot load, so the poster shows', async () => {
  const loaded = loadYouTubeApi();
  script()!.dispatchEvent(new Event('error'));
  await expect(loaded).rejects.toThrow('could not be loaded');
  expect(script()).toBeNull();
});

it('rejects when the script never answers', async () => {
  jest.useFakeTimers();
  try {
    const loaded = loadYouTubeApi(1000);
    const settled = expect(loaded).rejects.toThrow('did not load in time');
    await jest.advanceTimersByTimeAsync(1000);
    await settled;
  } finally {
    jest.useRealTimers();
  }
});
