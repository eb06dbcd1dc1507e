import type { RowDefinition } from './rowSets';
import { Row } from './Row';
import styles from './Row.module.scss';

/** A screen's genre rows, one under another. */
export function RowStack({ rows }: { rows: readonly RowDefinition[] }) {
  return (
    <div className={styles.stack}>
      {rows.map((row, index) => (
        <Row key={`${row.type}-${row.id}`} row={row} first={index === 0} />
      ))}
    </div>
  );
}
