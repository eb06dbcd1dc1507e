import { ActionButton, Icon, Notice, type MediaType } from '@netnet/shared';
import { useRated } from '../rating/ratings';
import { titleIcons } from './icons';

/** Thumbs up: outline when not rated, filled when rated (docs/product.md#my-list-rate-and-share). */
export function RateButton({ type, id }: { type: MediaType; id: number }) {
  const { rated, status, busy, error, note, toggle } = useRated(type, id);
  return (
    <>
      <ActionButton
        label="Rate"
        icon={<Icon d={titleIcons.thumbsUp} line filled={rated} />}
        pressed={rated}
        unavailable={status !== 'ready' || busy}
        note={note}
        onClick={() => void toggle()}
      />
      <Notice message={error} />
    </>
  );
}
