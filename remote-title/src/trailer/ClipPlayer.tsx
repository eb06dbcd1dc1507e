import { useCallback, useEffect, useRef } from 'react';
import type { PlayerProps } from './playerProps';
import { useRestart } from './useRestart';
import styles from './Trailer.module.scss';

/** The embedded catalogue's self-hosted clip in a plain <video>, behind the same controls as YouTube. */
export function ClipPlayer({ url, muted, playing, restarts, send }: PlayerProps & { url: string }) {
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (video.current) video.current.muted = muted;
  }, [muted]);

  const play = useCallback(() => {
    // A browser that refuses autoplay leaves the clip paused: show it as paused, not broken.
    video.current?.play()?.catch((error: unknown) => {
      if (!(error instanceof DOMException && error.name === 'AbortError')) send({ type: 'paused' });
    });
  }, [send]);

  useEffect(() => {
    if (playing) play();
    else video.current?.pause();
  }, [playing, play]);

  useRestart(restarts, () => {
    if (video.current) video.current.currentTime = 0;
    play();
  });

  return (
    <video
      ref={video}
      className={styles.clip}
      src={url}
      autoPlay={playing}
      muted
      loop
      playsInline
      preload="auto"
      aria-hidden="true"
      tabIndex={-1}
      onLoadedData={() => send({ type: 'ready' })}
      onPlaying={() => send({ type: 'played' })}
      onPause={() => send({ type: 'paused' })}
      onError={() => send({ type: 'failed' })}
    />
  );
}
