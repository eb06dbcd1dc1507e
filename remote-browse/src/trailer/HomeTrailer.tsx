import { useRef, useState, useSyncExternalStore } from 'react';
import { Icon, icons } from '@netnet/shared';
import trailerUrl from '../assets/home-trailer.mp4';
import posterUrl from '../assets/home-trailer.jpg';
import captionsUrl from '../assets/home-trailer.vtt';
import { playQuietly, usePauseWhileHidden } from './usePauseWhileHidden';
import styles from './HomeTrailer.module.scss';

const noChanges = () => () => {};
/**
 * False in the server's HTML and while the browser takes it over, true from then on: the clip
 * (the heaviest file of /browse) waits until the page answers the member, and the poster alone
 * is the first paint (docs/architecture.md#server-rendering).
 */
const useTakenOver = () => useSyncExternalStore(noChanges, () => true, () => false);

/**
 * The home screen's looping trailer (docs/product.md#home): muted by default with a sound toggle. It also has
 * a pause control, because moving content that plays on its own for more than five seconds must
 * be stoppable (WCAG 2.2.2).
 */
export function HomeTrailer() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  // Follows the element's own play/pause events, so the label is right even when autoplay is refused.
  const [playing, setPlaying] = useState(false);
  const takenOver = useTakenOver();
  usePauseWhileHidden(videoRef);

  const togglePlaying = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) playQuietly(video);
    else video.pause();
  };

  // The captions come from the remote's origin, like the video; a cross-origin track needs CORS
  // (crossOrigin on the video, Access-Control-Allow-Origin from the remote).
  return (
    <section className={styles.trailer} aria-label="Trailer">
      <video
        ref={videoRef}
        className={styles.video}
        src={takenOver ? trailerUrl : undefined}
        poster={posterUrl}
        playsInline
        muted={muted}
        autoPlay={takenOver}
        loop
        preload={takenOver ? 'metadata' : 'none'}
        aria-label="Netnet home trailer"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        crossOrigin="anonymous"
      >
        <track kind="captions" src={captionsUrl} srcLang="en" label="English" />
      </video>
      <div className={styles.controls}>
        <button type="button" className={styles.control} onClick={togglePlaying} aria-label={playing ? 'Pause trailer' : 'Play trailer'}>
          <Icon d={playing ? icons.pause : icons.play} />
        </button>
        <button type="button" className={styles.control} onClick={() => setMuted((m) => !m)} aria-label={muted ? 'Activate sound' : 'Mute sound'}>
          <Icon d={muted ? icons.soundOff : icons.soundOn} />
        </button>
      </div>
    </section>
  );
}
