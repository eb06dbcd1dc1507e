import { useId, useState } from 'react';
import { canExpand, visibleNames } from './people';
import styles from './Credits.module.scss';

interface PeopleLineProps {
  /** 'Cast', 'Director'. */
  label: string;
  names: string[];
}

/** 'Cast: A, B, C, D… more' — 4 names, 7 after 'more', back to 4 with 'less' (docs/product.md#cast-and-director). */
export function PeopleLine({ label, names }: PeopleLineProps) {
  const [expanded, setExpanded] = useState(false);
  const namesId = useId();
  if (names.length === 0) return null;
  const shown = visibleNames(names, expanded);
  const truncated = shown.length < names.length;
  return (
    <p className={styles.line}>
      <span className={styles.label}>{label}:</span>{' '}
      <span id={namesId}>
        {shown.join(', ')}
        {truncated && '…'}
      </span>
      {canExpand(names) && (
        <>
          {' '}
          <button
            type="button"
            className={styles.more}
            aria-expanded={expanded}
            aria-controls={namesId}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? 'less' : 'more'}
            <span className="nn-visually-hidden"> {label.toLowerCase()}</span>
          </button>
        </>
      )}
    </p>
  );
}
