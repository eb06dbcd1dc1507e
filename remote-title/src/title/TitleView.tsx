import { useEffect, useEffectEvent, useRef } from 'react';
import {
  imageUrl,
  type MediaType,
  Notice,
  PLAY_ON_ARRIVAL,
  type TitleDetails,
  titleName,
  useSearchParams,
  usePageTitle,
} from '@netnet/shared';
import { prefersReducedMotion } from '@netnet/shared/motion';
import { TitleActions } from '../actions/TitleActions';
import { TitleCredits } from '../credits/TitleCredits';
import { TitleFacts } from '../details/TitleFacts';
import { WatchButtons } from '../details/WatchButtons';
import { useNotice } from '../notice/useNotice';
import { MoreLikeThis } from '../similar/MoreLikeThis';
import { PopularRow } from '../similar/PopularRow';
import { Trailer } from '../trailer/Trailer';
import { useTrailer } from '../trailer/useTrailer';
import styles from './TitleView.module.scss';

export const DOWNLOADS_UNAVAILABLE = 'Downloads aren’t available on the web. Watch online instead.';
export const noTrailer = (name: string) => `There’s no trailer for ${name} to play.`;

interface TitleViewProps {
  type: MediaType;
  details: TitleDetails;
}

/** A movie's or a series' page: trailer, details, credits, actions, More like this (docs/product.md#title-pages). */
export function TitleView({ type, details }: TitleViewProps) {
  const name = titleName(details);
  usePageTitle(name);
  const [trailer, send] = useTrailer(type, details.id);
  const trailerArea = useRef<HTMLElement>(null);
  const [notice, showNotice] = useNotice();
  // A landscape still fills the wide strip better than a portrait poster.
  const still = imageUrl(details.backdrop_path, 'w780') ?? imageUrl(details.poster_path, 'w500');
  const genres = (details.genres ?? []).map((g) => g.name).filter(Boolean);

  const play = () => {
    const smooth = !prefersReducedMotion();
    trailerArea.current?.scrollIntoView?.({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    if (trailer.stage === 'poster') showNotice(noTrailer(name));
    else send({ type: 'restart' });
  };

  // A hero's Play button arrives with ?play=1: play as if Play were pressed here, once.
  const [params, setParams] = useSearchParams();
  const arrivedToPlay = params.get(PLAY_ON_ARRIVAL.param) === PLAY_ON_ARRIVAL.value;
  // An effect event: it reads the latest trailer state, yet only an arrival (or the trailer
  // leaving 'waiting') runs it, once.
  const playOnArrival = useEffectEvent(() => {
    play();
    setParams(
      (current) => {
        current.delete(PLAY_ON_ARRIVAL.param);
        return current;
      },
      { replace: true },
    );
  });
  useEffect(() => {
    if (!arrivedToPlay || trailer.stage === 'waiting') return;
    playOnArrival();
  }, [arrivedToPlay, trailer.stage]);

  return (
    <article className={styles.page}>
      <div className={styles.main}>
        <Trailer ref={trailerArea} state={trailer} send={send} name={name} image={still} />
        <div className={styles.body}>
          <h1 className={styles.title}>{name}</h1>
          <TitleFacts details={details} type={type} />
          {genres.length > 0 && <p className={styles.genres}>{genres.join(' • ')}</p>}
          <WatchButtons onPlay={play} onDownload={() => showNotice(DOWNLOADS_UNAVAILABLE)} />
          {details.overview && <p className={styles.overview}>{details.overview}</p>}
          <TitleCredits type={type} id={details.id} />
          <TitleActions type={type} id={details.id} name={name} poster={details.poster_path} />
        </div>
      </div>
      <div className={styles.similar}>
        <MoreLikeThis type={type} id={details.id} />
      </div>
      <div className={styles.popular}>
        <PopularRow type={type} excludeId={details.id} />
      </div>
      <Notice message={notice} />
    </article>
  );
}
