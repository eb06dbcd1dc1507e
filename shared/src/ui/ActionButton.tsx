import { useId, type ReactNode } from 'react';

interface ActionButtonProps {
  label: string;
  /** A line `Icon`; the label names the control. */
  icon: ReactNode;
  onClick: () => void;
  /** For toggles (My list, Rate): announced as pressed / not pressed. */
  pressed?: boolean;
  /** Shown as not available (e.g. the local database cannot be used) but still focusable. */
  unavailable?: boolean;
  /** Why the action is unavailable or what it will do, read after the label. */
  note?: string | null;
  hasPopup?: 'dialog';
}

/** The icon-over-caption actions of heroes and title pages (My list, Rate, Share). */
export function ActionButton({ label, icon, onClick, pressed, unavailable, note, hasPopup }: ActionButtonProps) {
  const noteId = useId();
  return (
    <>
      <button
        type="button"
        className="nn-action-button"
        aria-pressed={pressed}
        aria-disabled={unavailable}
        aria-describedby={note ? noteId : undefined}
        aria-haspopup={hasPopup}
        title={note ?? undefined}
        onClick={onClick}
      >
        {icon}
        <span className="nn-action-caption">{label}</span>
      </button>
      {note && (
        <span id={noteId} className="nn-visually-hidden">
          {note}
        </span>
      )}
    </>
  );
}
