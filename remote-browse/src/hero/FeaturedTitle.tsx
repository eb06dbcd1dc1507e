import {
  Icon,
  icons,
  imageUrl,
  Link,
  type MediaType,
  MyListButton,
  PLAY_ON_ARRIVAL,
  titleHref,
  titleName,
  type TitleSummary,
} from '@netnet/shared';
import { GenreNames } from './GenreNames';
import buttons from '../common/buttons.module.scss';
import styles from './Hero.module.scss';

// A circled 'i' (ring and letter in one solid path): the heroes' Info and the billboard's More info.
export const INFO_ICON = 'M12 2a10 10 0 1 0 0 20 10 10 0 1 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 1 1 0-16zm-1 6.5h2V17h-2zm0-3.5h2v2h-2z';

interface FeaturedTitleProps {
  title: TitleSummary;
  type: MediaType;
}

/** The hero block (docs/product.md#hero-block): backdrop, name, genres, and My list / Play / Info. */
export function FeaturedTitle({ title, type }: FeaturedTitleProps) {
  const name = titleName(title);
  const detail = titleHref(type, title.id);
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
          <Link className={`${buttons.primary} ${styles.play}`} to={titleHref(type, title.id, { play: PLAY_ON_ARRIVAL.value })}>
            <Icon d={icons.play} />
            Play
          </Link>
          <Link className={styles.info} to={detail}>
            <Icon d={INFO_ICON} />
            <span>Info</span>
          </Link>
        </div>
      </div>
    </section>
  );
}
