import { catalogue, Icon, icons, Link, MyListButton, PLAY_ON_ARRIVAL, titleHref, titleName, useCatalogue, type TitleSummary } from '@netnet/shared';
import { HomeTrailer } from '../trailer/HomeTrailer';
import { INFO_ICON } from '../hero/FeaturedTitle';
import buttons from '../common/buttons.module.scss';
import styles from './Billboard.module.scss';

/**
 * The home billboard (docs/product.md#home): the looping trailer, and over it the featured title —
 * the most popular movie — with its name, synopsis, Play, More info and My list. While the title
 * loads, or if it cannot, the trailer plays alone. The title comes first in the page, the trailer
 * (drawn first by the style sheet) after it: Tab and screen readers reach Play and More info
 * before the trailer's Pause and sound controls, as on Netflix's billboard.
 */
export function Billboard() {
  const popular = useCatalogue(catalogue.popular('movie'));
  const featured = popular.status === 'fetched' ? popular.data.results[0] : undefined;
  return (
    <section className={styles.billboard} aria-label="Featured title">
      {featured && <FeaturedInfo title={featured} />}
      <HomeTrailer />
    </section>
  );
}

function FeaturedInfo({ title }: { title: TitleSummary }) {
  const name = titleName(title);
  return (
    <div className={styles.info}>
      <h2 className={styles.name}>{name}</h2>
      {title.overview && <p className={styles.synopsis}>{title.overview}</p>}
      <div className={styles.actions}>
        <Link className={buttons.primary} to={titleHref('movie', title.id, { play: PLAY_ON_ARRIVAL.value })}>
          <Icon d={icons.play} />
          Play
        </Link>
        <Link className={buttons.secondary} to={titleHref('movie', title.id)}>
          <Icon d={INFO_ICON} />
          More info
        </Link>
        <MyListButton id={title.id} type="movie" name={name} poster={title.poster_path} />
      </div>
    </div>
  );
}
