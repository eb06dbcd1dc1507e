// A release's failure rate over the hour as a small hand-drawn SVG line, with a label a screen
// reader reads and a table of its numbers beside it (a disclosure), so every figure is there
// without the picture. (One remote's larger chart: ./HourChart.tsx.)
import { DataTable, type Column } from './DataTable';
import { Disclosure } from './Disclosure';
import { clock } from './format';
import type { MinuteRate } from './types';

const COLUMNS: Column<MinuteRate>[] = [
  { header: 'Minute (UTC)', cell: (m) => clock(m.minute) },
  { header: 'Sessions', cell: (m) => m.sessions },
  { header: 'Failures', cell: (m) => m.failures },
];

/** A small line of one release's failure rate per minute over the hour. */
export function Sparkline({ label, minutes }: { label: string; minutes: MinuteRate[] }) {
  const width = 120;
  const height = 28;
  const rates = minutes.map((m) => (m.sessions ? m.failures / m.sessions : null));
  const top = Math.max(0.05, ...rates.map((rate) => rate ?? 0));
  const step = width / Math.max(1, minutes.length - 1);
  const points = rates.map((rate, index) => (rate === null ? null : `${(index * step).toFixed(1)},${(height - 2 - (rate / top) * (height - 4)).toFixed(1)}`));
  const segments: string[] = [];
  let current: string[] = [];
  for (const point of points) {
    if (point) current.push(point);
    else if (current.length) {
      segments.push(current.join(' '));
      current = [];
    }
  }
  if (current.length) segments.push(current.join(' '));
  return (
    <figure className="spark">
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={label}>
        <line x1="0" y1={height - 1} x2={width} y2={height - 1} className="axis" />
        {segments.map((segment) =>
          segment.includes(' ') ? <polyline key={segment} points={segment} className="line" /> : <circle key={segment} cx={segment.split(',')[0]} cy={segment.split(',')[1]} r="1.5" className="dot" />,
        )}
      </svg>
      <Disclosure summary="Numbers">
        {() => (
          <DataTable caption={label} columns={COLUMNS} rows={minutes.filter((m) => m.sessions > 0)} rowKey={(m) => m.minute} empty="No sessions in the last hour." />
        )}
      </Disclosure>
    </figure>
  );
}
