import { useEffect, useRef } from 'react';
import type { PlayerProps } from './playerProps';
import { useRestart } from './useRestart';
import { loadYouTubeApi, type YouTubePlayer } from './youtubeApi';
import styles from './Trailer.module.scss';

/** A YouTube trailer through the IFrame API: autoplaying, muted, looping, without YouTube's own controls. */
export function YouTubeTrailerPlayer({ videoKey, muted, playing, restarts, send }: PlayerProps & { videoKey: string }) {
  const host = useRef<HTMLDivElement>(null);
  const player = useRef<YouTubePlayer | null>(null);
  // What the player must do once YouTube has made it (onReady comes later, from outside React).
  const wanted = useRef({ muted, playing });
  useEffect(() => {
    wanted.current = { muted, playing };
  }, [muted, playing]);

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    // YouTube replaces this element with its iframe, so React must not own it.
    const mount = document.createElement('div');
    parent.append(mount);
    let live = true;
    let created: YouTubePlayer | null = null;

    loadYouTubeApi().then(
      (YT) => {
        if (!live) return;
        created = new YT.Player(mount, {
          videoId: videoKey,
          width: '100%',
          height: '100%',
          playerVars: {
            autoplay: wanted.current.playing ? 1 : 0,
            mute: 1,
            loop: 1,
            playlist: videoKey,
            controls: 0,
            disablekb: 1,
            fs: 0,
            iv_load_policy: 3,
            playsinline: 1,
            rel: 0,
          },
          events: {
            onReady: ({ target }) => {
              if (!live) return;
              player.current = target;
              if (wanted.current.muted) target.mute();
              else target.unMute();
              if (wanted.current.playing) target.playVideo();
              send({ type: 'ready' });
            },
            onStateChange: ({ target, data }) => {
              if (data === YT.PlayerState.PLAYING) send({ type: 'played' });
              else if (data === YT.PlayerState.PAUSED) send({ type: 'paused' });
              else if (data === YT.PlayerState.ENDED) {
                target.seekTo(0, true);
                target.playVideo();
              }
            },
            onError: () => live && send({ type: 'failed' }),
          },
        });
      },
      () => live && send({ type: 'failed' }),
    );

    return () => {
      live = false;
      player.current = null;
      created?.destroy();
      mount.remove();
    };
  }, [videoKey, send]);

  useEffect(() => {
    if (muted) player.current?.mute();
    else player.current?.unMute();
  }, [muted]);

  useEffect(() => {
    if (playing) player.current?.playVideo();
    else player.current?.pauseVideo();
  }, [playing]);

  useRestart(restarts, () => {
    player.current?.seekTo(0, true);
    player.current?.playVideo();
  });

  return <div ref={host} className={styles.youtube} aria-hidden="true" />;
}
