import { useEffect, useRef, useState } from 'react';
import { Icon, icons } from '@netnet/shared';
import { prefersReducedMotion } from '@netnet/shared/motion';
import { useTakenOver } from '../common/useTakenOver';
import trailerUrl from '../assets/home-trailer.mp4';
import posterUrl from '../assets/home-trailer.jpg';
import captionsUrl from '../assets/home-trailer.vtt';
import { playQuietly, usePauseWhileHidden } from './usePauseWhileHidden';
import styles from './HomeTrailer.module.scss';

/**
 * The home screen's looping trailer (docs/product.md#home): muted by default with a sound toggle. It also has
 * a pause control, because moving content that plays on its own for more than five seconds must
 * be stoppable (WCAG 2.2.2); for a member who prefers reduced motion it does not start on its own.
 */
export function HomeTrailer() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  // What the element is doing, read from the element itself, so the control always says what a press
  // will do: autoplay refused, or a clip that started before this component was listening (a page
  // rendered while the previous one was still on screen), included.
  const [playing, setPlaying] = useState(false);
  // The clip, the heaviest file of /browse, waits until the page answers: the poster is the first paint.
  const takenOver = useTakenOver();
  // A member who asked for less motion starts it with Play (taken over, so only ever in the browser).
  const autoPlay = takenOver && !prefersReducedMotion();
  usePauseWhileHidden(videoRef);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const follow = () => setPlaying(!video.paused);
    follow();
    const events = ['play', 'playing', 'pause', 'ended', 'emptied'] as const;
    events.forEach((type) => video.addEventListener(type, follow));
    return () => events.forEach((type) => video.removeEventListener(type, follow));
  }, [takenOver]);
  // React writes `muted` as a property only, never into the server's HTML, and leaves a taken-over
  // element as the server made it: set it here, so the clip that arrives afterwards may autoplay.
  useEffect(() => {
    if (videoRef.current) videoRef.current.muted = muted;
  }, [muted]);

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
        autoPlay={autoPlay}
        loop
        preload={takenOver ? 'metadata' : 'none'}
        aria-label="Netnet home trailer"
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
