import { forwardRef, type Dispatch } from 'react';
import { Icon, icons } from '@netnet/shared';
import { ClipPlayer } from './ClipPlayer';
import { showsPoster, type TrailerEvent, type TrailerState } from './trailerState';
import { YouTubeTrailerPlayer } from './YouTubeTrailerPlayer';
import styles from './Trailer.module.scss';

interface TrailerProps {
  state: TrailerState;
  send: Dispatch<TrailerEvent>;
  name: string;
  /** The still shown until a player has a picture, and instead of one that cannot play. */
  image: string | null;
}

/** The 160px trailer strip at the top of a title page, with play/pause and mute overlaid (docs/product.md#trailer). */
export const Trailer = forwardRef<HTMLElement, TrailerProps>(function Trailer({ state, send, name, image }, ref) {
  const { stage, source, ready, muted, playing, restarts } = state;
  const player = { muted, playing, restarts, send };
  return (
    <section ref={ref} className={styles.trailer} aria-label={`${name} trailer`}>
      {stage === 'video' && source?.kind === 'youtube' && <YouTubeTrailerPlayer videoKey={source.key} {...player} />}
      {stage === 'video' && source?.kind === 'file' && <ClipPlayer url={source.url} {...player} />}
      {showsPoster(state) &&
        (image ? (
          <img className={styles.poster} src={image} alt={`${name} poster`} />
        ) : (
          <span className={`${styles.poster} ${styles.noImage}`} role="img" aria-label={`${name} poster`}>
            {name}
          </span>
        ))}
      {stage === 'video' && ready && (
        <>
          <button
            type="button"
            className={styles.playToggle}
            data-playing={playing}
            aria-label={playing ? 'Pause trailer' : 'Play trailer'}
            onClick={() => send({ type: 'togglePlay' })}
          >
            <Icon d={playing ? icons.pause : icons.play} />
          </button>
          <button
            type="button"
            className={styles.mute}
            aria-label={muted ? 'Activate sound' : 'Mute sound'}
            onClick={() => send({ type: 'toggleMute' })}
          >
            <Icon d={muted ? icons.soundOff : icons.soundOn} />
          </button>
        </>
      )}
    </section>
  );
});
