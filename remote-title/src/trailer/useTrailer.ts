import { useEffect, useReducer, type Dispatch } from 'react';
import { catalogue, useCatalogue, type MediaType } from '@netnet/shared';
import { prefersReducedMotion } from '@netnet/shared/motion';
import { initialTrailer, pickTrailer, trailerReducer, type TrailerEvent, type TrailerState } from './trailerState';

/** How long a player may take to show a picture before the poster takes over for good. */
export const PLAYER_READY_TIMEOUT_MS = 12_000;

/** The trailer of one title: its videos call feeding the trailer state machine. */
export function useTrailer(type: MediaType, id: number): [TrailerState, Dispatch<TrailerEvent>] {
  const videos = useCatalogue(catalogue.videos(type, id));
  const [state, send] = useReducer(trailerReducer, initialTrailer);

  const results = videos.status === 'fetched' ? videos.data.results : null;
  useEffect(() => {
    if (videos.status === 'fetched') send({ type: 'videos', source: pickTrailer(results), still: prefersReducedMotion() });
    else if (videos.status === 'error') send({ type: 'videosFailed' });
  }, [videos.status, results]);

  const waitingForPicture = state.stage === 'video' && !state.ready;
  useEffect(() => {
    if (!waitingForPicture) return;
    const timer = setTimeout(() => send({ type: 'failed' }), PLAYER_READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waitingForPicture]);

  return [state, send];
}
