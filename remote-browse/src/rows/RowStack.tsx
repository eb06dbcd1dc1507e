import type { RowDefinition } from './rowSets';
import { Row } from './Row';
import styles from './Row.module.scss';

/** How many rows a phone shows as the page opens, under the hero. */
const ROWS_ON_SCREEN = 3;

/** A screen's genre rows, one under another. */
export function RowStack({ rows }: { rows: readonly RowDefinition[] }) {
  return (
    <div className={styles.stack}>
      {rows.map((row, index) => (
        <Row key={`${row.type}-${row.id}`} row={row} onScreen={index < ROWS_ON_SCREEN} />
      ))}
    </div>
  );
}
