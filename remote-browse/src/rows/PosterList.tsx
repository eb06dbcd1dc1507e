import { Poster, titleHref, titleName, type MediaType, type TitleSummary } from '@netnet/shared';
import { moveFocusWithArrows } from './moveFocusWithArrows';
import styles from './Row.module.scss';

interface PosterListProps {
  titles: TitleSummary[];
  /** Every title of a row has the row's type: a movie opens /title/{id}, a series /tv/{id}. */
  type: MediaType;
  /** How many posters from the start are on screen as the page opens (they load first). */
  onScreen?: number;
}

export function PosterList({ titles, type, onScreen = 0 }: PosterListProps) {
  if (titles.length === 0) return <p className={styles.empty}>Nothing to show here yet.</p>;
  return (
    // Arrow keys pressed on a poster link bubble to this wrapper, which moves focus between the
    // links. It is not a control, so it has no role of its own, and the list keeps its semantics.
    <div role="presentation" onKeyDown={moveFocusWithArrows}>
      <ul className={styles.list}>
        {titles.map((title, index) => (
          <li key={title.id} className={styles.item}>
            <Poster path={title.poster_path} name={titleName(title)} to={titleHref(type, title.id)} eager={index < onScreen} />
          </li>
        ))}
      </ul>
    </div>
  );
}
