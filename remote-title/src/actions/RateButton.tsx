import { useId } from 'react';
import { useRated, type MediaType } from '@netnet/shared';
import { Notice } from '../notice/Notice';
import { ActionIcon } from './ActionIcon';
import styles from './TitleActions.module.scss';

/** Thumbs up: outline when not rated, filled when rated (SPEC §4 "Rated toggle"). */
export function RateButton({ type, id }: { type: MediaType; id: number }) {
  const { rated, status, busy, error, note, toggle } = useRated(type, id);
  const noteId = useId();
  return (
    <>
      <button
        type="button"
        className={styles.action}
        aria-pressed={rated}
        aria-disabled={status !== 'ready' || busy}
        aria-describedby={note ? noteId : undefined}
        title={note ?? undefined}
        onClick={() => void toggle()}
      >
        <ActionIcon name={rated ? 'thumbs-up-filled' : 'thumbs-up'} />
        <span>Rate</span>
      </button>
      {note && (
        <span id={noteId} className="nn-visually-hidden">
          {note}
        </span>
      )}
      <Notice message={error} />
    </>
  );
}
