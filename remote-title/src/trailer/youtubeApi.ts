// The YouTube IFrame API, loaded on demand: only a title that has a YouTube trailer pays for
// it, and a page with no internet gets a rejection (and the poster) rather than a hang.

export interface YouTubePlayer {
  playVideo(): void;
  pauseVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  mute(): void;
  unMute(): void;
  destroy(): void;
}

export interface YouTubePlayerEvent {
  target: YouTubePlayer;
  data: number;
}

export interface YouTubeNamespace {
  Player: new (
    element: HTMLElement,
    options: {
      videoId: string;
      width?: string | number;
      height?: string | number;
      playerVars?: Record<string, string | number>;
      events?: {
        onReady?(event: YouTubePlayerEvent): void;
        onStateChange?(event: YouTubePlayerEvent): void;
        onError?(event: YouTubePlayerEvent): void;
      };
    },
  ) => YouTubePlayer;
  PlayerState: { ENDED: number; PLAYING: number; PAUSED: number };
}

declare global {
  interface Window {
    YT?: YouTubeNamespace;
    onYouTubeIframeAPIReady?: () => void;
  }
}

export const YOUTUBE_API_URL = 'https://www.youtube.com/iframe_api';
export const YOUTUBE_API_TIMEOUT_MS = 8000;

let loading: Promise<YouTubeNamespace> | null = null;

export function loadYouTubeApi(timeoutMs = YOUTUBE_API_TIMEOUT_MS): Promise<YouTubeNamespace> {
  if (window.YT?.Player) return Promise.resolve(window.YT);
  loading ??= new Promise<YouTubeNamespace>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = (reason: string) => {
      clearTimeout(timer);
      script.remove();
      // A later trailer may try again (the network may be back).
      loading = null;
      reject(new Error(reason));
    };
    const timer = setTimeout(() => fail('The YouTube player did not load in time.'), timeoutMs);
    const previous = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = () => {
      previous?.();
      clearTimeout(timer);
      // From now on window.YT answers directly.
      loading = null;
      if (window.YT?.Player) resolve(window.YT);
      else fail('The YouTube player loaded without its API.');
    };
    script.src = YOUTUBE_API_URL;
    script.async = true;
    script.onerror = () => fail('The YouTube player could not be loaded.');
    document.head.append(script);
  });
  return loading;
}
