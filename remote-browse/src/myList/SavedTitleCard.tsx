import { Icon, icons, Poster, titleHref, type SavedTitle } from '@netnet/shared';
import styles from './MyList.module.scss';

interface SavedTitleCardProps {
  title: SavedTitle;
  onRemove: (title: SavedTitle) => void;
  busy: boolean;
}

/** One saved title: its poster (to its page, by type) and a way to take it off the list. */
export function SavedTitleCard({ title, onRemove, busy }: SavedTitleCardProps) {
  return (
    <li className={styles.card}>
      <Poster path={title.poster} name={title.name} to={titleHref(title.type, title.id)} />
      <span className={styles.name} aria-hidden="true">
        {title.name}
      </span>
      <button
        type="button"
        className={styles.remove}
        aria-label={`Remove ${title.name} from My list`}
        aria-disabled={busy}
        onClick={() => !busy && onRemove(title)}
      >
        <Icon d={icons.close} line />
      </button>
    </li>
  );
}
