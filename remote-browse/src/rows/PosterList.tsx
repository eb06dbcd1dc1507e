import { useRef } from 'react';
import { Poster, titleHref, titleName, type MediaType, type TitleSummary } from '@netnet/shared';
import { useRovingRow } from '@netnet/shared/roving-row';
import { useTakenOver } from '../common/useTakenOver';
import { ScrollButtons } from './ScrollButtons';
import styles from './Row.module.scss';

/** A phone shows about four posters of a row. */
export const POSTERS_ON_SCREEN = 4;

interface PosterListProps {
  titles: TitleSummary[];
  /** Every title of a row has the row's type: a movie opens /title/{id}, a series /tv/{id}. */
  type: MediaType;
  /** The row is on screen as the page opens: its first posters load first. */
  onScreen?: boolean;
  /** The row's name, for its arrows ("More Comedy movies"). */
  label?: string;
}

/**
 * A row's posters. The server's page (and the browser taking it over) holds only the posters a
 * phone shows; the rest of the row follows once the page answers the member, so a page of many
 * rows takes less to take over and its offscreen posters do not compete with what it needs first.
 * The row is one Tab stop: the poster last reached with the arrow keys (or a click) holds it.
 */
export function PosterList({ titles, type, onScreen = false, label = 'titles' }: PosterListProps) {
  const whole = useTakenOver();
  const list = useRef<HTMLUListElement>(null);
  const shown = whole ? titles : titles.slice(0, POSTERS_ON_SCREEN);
  const { tabIndexOf, handlers } = useRovingRow(shown.length);

  if (titles.length === 0) return <p className={styles.empty}>Nothing to show here yet.</p>;

  return (
    // Arrow keys pressed on a poster link bubble to this wrapper, which moves focus between the
    // links. It is not a control, so it has no role of its own, and the list keeps its semantics.
    <div role="presentation" className={styles.scroller} {...handlers}>
      <ul ref={list} className={styles.list}>
        {shown.map((title, index) => (
          <li key={title.id} className={styles.item}>
            <Poster
              path={title.poster_path}
              name={titleName(title)}
              to={titleHref(type, title.id)}
              eager={onScreen && index < POSTERS_ON_SCREEN}
              tabIndex={tabIndexOf(index)}
            />
          </li>
        ))}
      </ul>
      <ScrollButtons list={list} label={label} />
    </div>
  );
}
