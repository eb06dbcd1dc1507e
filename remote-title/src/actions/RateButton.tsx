import { ActionButton, ActionIcon, Notice, useRated, type MediaType } from '@netnet/shared';
import { icons } from './icons';

/** Thumbs up: outline when not rated, filled when rated (SPEC §4 "Rated toggle"). */
export function RateButton({ type, id }: { type: MediaType; id: number }) {
  const { rated, status, busy, error, note, toggle } = useRated(type, id);
  return (
    <>
      <ActionButton
        label="Rate"
        icon={<ActionIcon path={icons.thumbsUp} filled={rated} />}
        pressed={rated}
        unavailable={status !== 'ready' || busy}
        note={note}
        onClick={() => void toggle()}
      />
      <Notice message={error} />
    </>
  );
}
