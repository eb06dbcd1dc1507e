import type { Video } from '@netnet/shared';

// The detail-page trailer as a pure state machine (docs/product.md#trailer): what plays, whether it
// is muted and playing, and when the poster stands in for it.

export type TrailerSource = { kind: 'youtube'; key: string } | { kind: 'file'; url: string };

/** The first YouTube video; else the embedded catalogue's self-hosted clip; else none. */
export function pickTrailer(videos: readonly Video[] | null | undefined): TrailerSource | null {
  const list = videos ?? [];
  const youtube = list.find((v) => v.site === 'YouTube' && typeof v.key === 'string' && v.key.trim() !== '');
  if (youtube) return { kind: 'youtube', key: youtube.key };
  const clip = list.find((v) => v.site === 'Netnet' && typeof v.url === 'string' && /^https?:\/\//.test(v.url));
  return clip?.url ? { kind: 'file', url: clip.url } : null;
}

export interface TrailerState {
  /** waiting: videos not known yet · video: a player is up · poster: nothing can play. */
  stage: 'waiting' | 'video' | 'poster';
  source: TrailerSource | null;
  /** The player has something on screen; until then the poster shows. */
  ready: boolean;
  muted: boolean;
  playing: boolean;
  /** Bumped by the Play button: the player starts again from the beginning. */
  restarts: number;
}

export type TrailerEvent =
  /** `still`: the member prefers reduced motion, so the trailer waits for Play. */
  | { type: 'videos'; source: TrailerSource | null; still?: boolean }
  | { type: 'videosFailed' }
  | { type: 'ready' }
  | { type: 'failed' }
  | { type: 'togglePlay' }
  | { type: 'toggleMute' }
  | { type: 'paused' }
  | { type: 'played' }
  | { type: 'restart' };

export const initialTrailer: TrailerState = {
  stage: 'waiting',
  source: null,
  ready: false,
  muted: true,
  playing: true,
  restarts: 0,
};

export function trailerReducer(state: TrailerState, event: TrailerEvent): TrailerState {
  switch (event.type) {
    case 'videos':
      return event.source
        ? { ...initialTrailer, stage: 'video', source: event.source, restarts: state.restarts, playing: !event.still }
        : { ...state, stage: 'poster', source: null, ready: false };
    case 'videosFailed':
    case 'failed':
      return { ...state, stage: 'poster', source: null, ready: false, playing: false };
  }
  if (state.stage !== 'video') return state;
  switch (event.type) {
    case 'ready':
      return { ...state, ready: true };
    case 'togglePlay':
      return { ...state, playing: !state.playing };
    case 'toggleMute':
      return { ...state, muted: !state.muted };
    case 'paused':
      return state.playing ? { ...state, playing: false } : state;
    case 'played':
      return state.playing ? state : { ...state, playing: true };
    case 'restart':
      return { ...state, playing: true, restarts: state.restarts + 1 };
  }
}

/** The poster shows whenever no player has a picture up. */
export const showsPoster = (state: TrailerState): boolean => state.stage !== 'video' || !state.ready;
