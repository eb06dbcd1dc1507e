import { forwardRef, type Dispatch } from 'react';
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

/** The 160px trailer strip at the top of a title page, with play/pause and mute overlaid (SPEC §2). */
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
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              {playing ? <path d="M7 5h3v14H7zM14 5h3v14h-3z" /> : <path d="M8 5l11 7-11 7z" />}
            </svg>
          </button>
          <button
            type="button"
            className={styles.mute}
            aria-label={muted ? 'Activate sound' : 'Mute sound'}
            onClick={() => send({ type: 'toggleMute' })}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M4 9v6h4l5 4V5L8 9z" />
              {muted ? <path className={styles.stroke} d="M16 9l5 6M21 9l-5 6" /> : <path className={styles.stroke} d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" />}
            </svg>
          </button>
        </>
      )}
    </section>
  );
});
