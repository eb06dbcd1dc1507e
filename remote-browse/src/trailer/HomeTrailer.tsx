import { useRef, useState } from 'react';
import trailerUrl from '../assets/home-trailer.mp4';
import posterUrl from '../assets/home-trailer.jpg';
import { PauseIcon, PlayIcon, SoundOffIcon, SoundOnIcon } from './icons';
import { playQuietly, usePauseWhileHidden } from './usePauseWhileHidden';
import styles from './HomeTrailer.module.scss';

/**
 * The home screen's looping trailer (SPEC §2): muted by default with a sound toggle. It also has
 * a pause control, because moving content that plays on its own for more than five seconds must
 * be stoppable (WCAG 2.2.2).
 */
export function HomeTrailer() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  // Follows the element's own play/pause events, so the label is right even when autoplay is refused.
  const [playing, setPlaying] = useState(false);
  usePauseWhileHidden(videoRef);

  const togglePlaying = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) playQuietly(video);
    else video.pause();
  };

  return (
    <section className={styles.trailer} aria-label="Trailer">
      <video
        ref={videoRef}
        className={styles.video}
        src={trailerUrl}
        poster={posterUrl}
        playsInline
        muted={muted}
        autoPlay
        loop
        preload="metadata"
        aria-label="Netnet home trailer"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
      />
      <div className={styles.controls}>
        <button type="button" className={styles.control} onClick={togglePlaying} aria-label={playing ? 'Pause trailer' : 'Play trailer'}>
          {playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <button type="button" className={styles.control} onClick={() => setMuted((m) => !m)} aria-label={muted ? 'Activate sound' : 'Mute sound'}>
          {muted ? <SoundOffIcon /> : <SoundOnIcon />}
        </button>
      </div>
    </section>
  );
}
