import { useId } from 'react';
import type { MediaType } from '../types';
import { useSavedTitle } from '../store';
import styles from './MyListButton.module.scss';

export interface MyListButtonProps {
  id: number;
  type: MediaType;
  name: string;
  poster: string | null;
}

/**
 * The one My list toggle (title page and browse heroes): a plus when the title is not on the
 * member's list, a check when it is (SPEC §4). Pressed state is announced with aria-pressed.
 */
export function MyListButton({ id, type, name, poster }: MyListButtonProps) {
  const { saved, status, busy, error, note, toggle } = useSavedTitle({ id, type, name, poster });
  const noteId = useId();

  return (
    <span className={styles.wrap}>
      <button
        type="button"
        className={styles.button}
        aria-pressed={saved}
        aria-disabled={status !== 'ready' || busy}
        aria-describedby={note ? noteId : undefined}
        title={note ?? undefined}
        onClick={() => void toggle()}
      >
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          {saved ? <path d="M4 12.5l5 5L20 6.5" /> : <path d="M12 4v16M4 12h16" />}
        </svg>
        <span className={styles.caption}>My list</span>
      </button>
      {note && (
        <span id={noteId} className="nn-visually-hidden">
          {note}
        </span>
      )}
      <span role="status" className={error ? styles.notice : 'nn-visually-hidden'}>
        {error}
      </span>
    </span>
  );
}
