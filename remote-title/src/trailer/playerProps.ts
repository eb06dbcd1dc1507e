import type { Dispatch } from 'react';
import type { TrailerEvent } from './trailerState';

/** What either player (YouTube or the self-hosted clip) gets from the trailer state machine. */
export interface PlayerProps {
  muted: boolean;
  playing: boolean;
  restarts: number;
  send: Dispatch<TrailerEvent>;
}
