import {
  imageUrl,
  Link,
  type MediaType,
  MyListButton,
  routes,
  titleName,
  type TitleSummary,
} from '@netnet/shared';
import { GenreNames } from './GenreNames';
import { InfoIcon, PlayIcon } from './icons';
import buttons from '../common/buttons.module.scss';
import styles from './Hero.module.scss';

/** The detail page opens with its trailer playing when it is reached with this (read by remote-title). */
export const PLAY_PARAM = 'play';

interface FeaturedTitleProps {
  title: TitleSummary;
  type: MediaType;
}

/** The hero block (SPEC §2): backdrop, name, genres, and My list / Play / Info. */
export function FeaturedTitle({ title, type }: FeaturedTitleProps) {
  const name = titleName(title);
  const detail = routes.title(type, title.id);
  const medium = imageUrl(title.backdrop_path, 'w780');
  const large = imageUrl(title.backdrop_path, 'w1280');

  return (
    <section className={styles.hero} aria-label={type === 'movie' ? 'Featured movie' : 'Featured series'}>
      {medium && large && (
        <img
          className={styles.backdrop}
          src={large}
          srcSet={`${medium} 780w, ${large} 1280w`}
          sizes="100vw"
          alt=""
          fetchPriority="high"
          decoding="async"
        />
      )}
      <div className={styles.content}>
        <h2 className={styles.name}>{name}</h2>
        <GenreNames type={type} ids={title.genre_ids} />
        <div className={styles.actions}>
          <MyListButton id={title.id} type={type} name={name} poster={title.poster_path} />
          <Link className={`${buttons.primary} ${styles.play}`} to={`${detail}?${PLAY_PARAM}=1`}>
            <PlayIcon />
            Play
          </Link>
          <Link className={styles.info} to={detail}>
            <InfoIcon />
            <span>Info</span>
          </Link>
        </div>
      </div>
    </section>
  );
}
