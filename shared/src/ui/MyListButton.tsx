import type { MediaType } from '../types';
import { useSavedTitle } from '../store';
import { ActionButton } from './ActionButton';
import { Icon } from './Icon';
import { Notice } from './Notice';

export interface MyListButtonProps {
  id: number;
  type: MediaType;
  name: string;
  poster: string | null;
}

const PLUS = 'M12 4v16M4 12h16';
const CHECK = 'M4 12.5l5 5L20 6.5';

/**
 * The one My list toggle (title page and browse heroes): a plus when the title is not on the
 * member's list, a check when it is (docs/product.md#my-list-rate-and-share). Pressed state is announced with aria-pressed.
 */
export function MyListButton({ id, type, name, poster }: MyListButtonProps) {
  const { saved, status, busy, error, note, toggle } = useSavedTitle({ id, type, name, poster });
  return (
    <span className="nn-my-list">
      <ActionButton
        label="My list"
        icon={<Icon d={saved ? CHECK : PLUS} line />}
        pressed={saved}
        unavailable={status !== 'ready' || busy}
        note={note}
        onClick={() => void toggle()}
      />
      <Notice message={error} />
    </span>
  );
}
