import { Poster, routes, titleName, type MediaType, type TitleSummary } from '@netnet/shared';
import { moveFocusWithArrows } from './moveFocusWithArrows';
import styles from './Row.module.scss';

interface PosterListProps {
  titles: TitleSummary[];
  /** Every title of a row has the row's type: a movie opens /title/{id}, a series /tv/{id}. */
  type: MediaType;
}

export function PosterList({ titles, type }: PosterListProps) {
  if (titles.length === 0) return <p className={styles.empty}>Nothing to show here yet.</p>;
  return (
    // The list only forwards arrow keys to the links it holds; it is not itself a control.
    <ul className={styles.list} onKeyDown={moveFocusWithArrows}>
      {titles.map((title) => (
        <li key={title.id} className={styles.item}>
          <Poster path={title.poster_path} name={titleName(title)} to={routes.title(type, title.id)} />
        </li>
      ))}
    </ul>
  );
}
