import { useEffect, type RefObject } from 'react';

/**
 * Pauses the video while the tab is hidden and resumes it when the tab comes back — but only if
 * it was playing when the tab went away, so a member's own Pause survives a tab switch.
 */
export function usePauseWhileHidden(videoRef: RefObject<HTMLVideoElement | null>): void {
  useEffect(() => {
    let pausedByHiding = false;
    const onVisibilityChange = () => {
      const video = videoRef.current;
      if (!video) return;
      if (document.hidden) {
        pausedByHiding = !video.paused;
        if (pausedByHiding) video.pause();
      } else if (pausedByHiding) {
        pausedByHiding = false;
        playQuietly(video);
      }
    };
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => document.removeEventListener('visibilitychange', onVisibilityChange);
  }, [videoRef]);
}

/**
 * play() rejects when the browser refuses playback (autoplay policy, a pause that came first,
 * a removed element). The video then simply stays paused; the rejection must not surface as
 * an uncaught error.
 */
export function playQuietly(video: HTMLVideoElement): void {
  try {
    const started = video.play() as Promise<void> | undefined;
    started?.catch(() => undefined);
  } catch {
    // Older engines throw synchronously instead of rejecting; same outcome.
  }
}
