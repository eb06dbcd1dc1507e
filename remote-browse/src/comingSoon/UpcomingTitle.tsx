import { Poster, href, titleName, type TitleSummary } from '@netnet/shared';
import { releaseLabel } from './releaseDate';
import styles from './ComingSoon.module.scss';

/** One upcoming movie: poster, name, when it arrives and what it is about. */
export function UpcomingTitle({ title }: { title: TitleSummary }) {
  const name = titleName(title);
  return (
    <li className={styles.item}>
      <Poster path={title.poster_path} name={name} to={href('movie', { id: title.id })} />
      <div className={styles.text}>
        <h2 className={styles.name}>{name}</h2>
        <p className={styles.date}>
          {title.release_date ? <time dateTime={title.release_date}>{releaseLabel(title.release_date)}</time> : releaseLabel(null)}
        </p>
        {title.overview && <p className={styles.overview}>{title.overview}</p>}
      </div>
    </li>
  );
}
