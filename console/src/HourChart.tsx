// One remote over the last hour as hand-drawn SVG: sessions, failure rate and LCP p75, stable
// against canary. Few elements however many minutes and changes: one path per series, and one per
// kind of mark (the guard's decisions, the other changes), each mark named once, above the first
// panel. Each axis has a few round values (./chartScale.ts). Each panel has a label a screen
// reader reads, and the numbers and changes are in tables beside the chart (a disclosure, made
// when opened), so every figure is there without the picture. Drawing it is timed (./timing.ts).
import { useEffect, useId } from 'react';
import { minuteTicks, roundTop } from './chartScale';
import { DataTable, type Column } from './DataTable';
import { Disclosure } from './Disclosure';
import { clock, ms, percent } from './format';
import { measureDrawn } from './timing';
import type { Mark, Minute } from './types';

type Measure = 'sessions' | 'rate' | 'lcpP75';

const MEASURES: { key: Measure; title: string; show: (value: number | null) => string }[] = [
  { key: 'sessions', title: 'Sessions per minute', show: (value) => (value === null ? '–' : String(value)) },
  { key: 'rate', title: 'Failure rate', show: (value) => percent(value) },
  { key: 'lcpP75', title: 'LCP p75', show: (value) => ms(value) },
];

const valueOf = (m: Minute, key: Measure) => (key === 'sessions' ? m.sessions || null : m[key]);

/** One series as one path: a line through the minutes that have a value, lifted over the gaps. */
function path(minutes: Minute[], key: Measure, x: (minute: number) => number, y: (value: number) => number) {
  let d = '';
  let open = false;
  for (const m of minutes) {
    const value = valueOf(m, key);
    if (value === null) {
      open = false;
      continue;
    }
    d += `${open ? 'L' : 'M'}${x(m.minute).toFixed(1)} ${y(value).toFixed(1)}`;
    open = true;
  }
  return d;
}

type BothAt = { minute: number; stable?: Minute; canary?: Minute };
const figuresOf = (channel: 'stable' | 'canary', name: string): Column<BothAt>[] => [
  { header: `${name} sessions`, cell: (both) => both[channel]?.sessions ?? 0 },
  { header: `${name} failure rate`, cell: (both) => percent(both[channel]?.rate ?? null) },
  { header: `${name} LCP p75`, cell: (both) => ms(both[channel]?.lcpP75 ?? null) },
];
const MINUTE_COLUMNS: Column<BothAt>[] = [{ header: 'Minute (UTC)', cell: (both) => clock(both.minute) }, ...figuresOf('stable', 'Stable'), ...figuresOf('canary', 'Canary')];
const MARK_COLUMNS: Column<Mark>[] = [
  { header: 'Time (UTC)', cell: (mark) => mark.at.slice(11, 19) },
  { header: 'Change', cell: (mark) => mark.action },
  { header: 'By', cell: (mark) => mark.actor },
  { header: 'Why', cell: (mark) => mark.reason ?? '–' },
];

/** What a mark is called on the chart: the change, and whose it was when the guard's. */
const markName = (mark: Mark) => (mark.guard ? `guard ${mark.action}` : mark.action);

/** The marks in words, for the panels' labels: the first few, then how many more. */
function marksInWords(marks: Mark[]) {
  if (!marks.length) return 'no change marked';
  const shown = marks.slice(0, 5).map((mark) => `${mark.at.slice(11, 16)} ${markName(mark)} by ${mark.actor}`);
  return `changes marked: ${shown.join('; ')}${marks.length > 5 ? `; and ${marks.length - 5} more` : ''}`;
}

/** Marks closer together than a label is long (in the chart's units): named as one. */
const NEAR = 48;

/** What a group of marks made at about the same time is called: the one change, the same one a number of times, or how many. */
function groupName(group: Mark[]) {
  const names = new Set(group.map(markName));
  if (group.length === 1 || names.size > 1) return group.length === 1 ? markName(group[0]!) : `${group.length} changes`;
  return `${markName(group[0]!)} ×${group.length}`;
}

/**
 * The marks' names above the chart, at their time (left of it near the right edge): marks made at
 * about the same time share one name (each of them in its tooltip), and a name goes on a second
 * row where the first is taken.
 */
function MarkLabels({ marks, x, y, right }: { marks: Mark[]; x: (minute: number) => number; y: number; right: number }) {
  const at = (mark: Mark) => x(new Date(mark.at).getTime() / 60_000);
  const groups: Mark[][] = [];
  for (const mark of [...marks].sort((a, b) => a.at.localeCompare(b.at))) {
    const last = groups.at(-1);
    if (last && at(mark) - at(last[0]!) < NEAR) last.push(mark);
    else groups.push([mark]);
  }
  const rowEnds = [-Infinity, -Infinity];
  const placed = groups.map((group) => {
    const first = group[0]!;
    const left = at(first);
    const name = groupName(group);
    // About 6 px a character at the ticks' size.
    const length = name.length * 6;
    const before = left + 2 + length > right;
    const start = before ? left - 2 - length : left + 2;
    const row = Math.max(0, rowEnds.findIndex((end) => end < start));
    rowEnds[row] = start + length + 4;
    const guard = group.every((mark) => mark.guard);
    const details = group.map((mark) => `${mark.at.slice(11, 16)} ${markName(mark)} by ${mark.actor}`).join('; ');
    return { key: `${first.at}${first.action}`, left, before, row, name, guard, details };
  });
  return (
    <>
      {placed.map(({ key, left, before, row, name, guard, details }) => (
        <text key={key} x={before ? left - 2 : left + 2} y={y + row * 12} textAnchor={before ? 'end' : 'start'} className={`mark-label ${guard ? 'guard' : 'change'}`}>
          <title>{details}</title>
          {name}
        </text>
      ))}
    </>
  );
}

function NumbersTables({ remote, stable, canary, marks }: { remote: string; stable: Minute[]; canary: Minute[]; marks: Mark[] }) {
  const byMinute = new Map<number, BothAt>();
  for (const m of stable) byMinute.set(m.minute, { ...byMinute.get(m.minute), minute: m.minute, stable: m });
  for (const m of canary) byMinute.set(m.minute, { ...byMinute.get(m.minute), minute: m.minute, canary: m });
  const rows = [...byMinute.values()].filter((both) => (both.stable?.sessions ?? 0) + (both.canary?.sessions ?? 0) > 0).sort((a, b) => a.minute - b.minute);
  return (
    <>
      <DataTable
        caption={`${remote} per minute, stable and canary`}
        columns={MINUTE_COLUMNS}
        rows={rows}
        rowKey={(both) => both.minute}
        empty="No sessions reported in the last hour."
      />
      <DataTable caption="Changes marked on the chart" columns={MARK_COLUMNS} rows={marks} rowKey={(mark) => `${mark.at}${mark.action}`} empty="No change in the last hour." />
    </>
  );
}

/** One remote over the hour: sessions, failure rate and LCP p75, stable against canary, with the guard's decisions and every rollout change marked on the time axis. */
export function HourChart({ remote, from, to, stable, canary, marks }: { remote: string; from: number; to: number; stable: Minute[]; canary: Minute[]; marks: Mark[] }) {
  const id = useId();
  useEffect(() => measureDrawn('console:hour-chart'), [stable, canary, marks]);
  const width = 600;
  const pad = { left: 60, right: 20, bottom: 18 };
  const plotHeight = 84;
  const x = (minute: number) => pad.left + ((minute - from) / Math.max(1, to - from)) * (width - pad.left - pad.right);
  const ticks = minuteTicks(from, to);
  const described = marksInWords(marks);
  return (
    <section aria-labelledby={`${id}-title`} className="hour-chart">
      <h3 id={`${id}-title`}>The last hour: stable against canary</h3>
      <p className="legend">
        <span className="key stable">stable</span> <span className="key canary">canary</span> <span className="key guard">guard decision</span> <span className="key change">rollout change</span>
      </p>
      {MEASURES.map(({ key, title, show }, index) => {
        let highest = key === 'rate' ? 0.05 : 1;
        for (const m of stable) highest = Math.max(highest, valueOf(m, key) ?? 0);
        for (const m of canary) highest = Math.max(highest, valueOf(m, key) ?? 0);
        const top = roundTop(highest, { whole: key !== 'rate' });
        // The first panel names the marks, in two rows above its plot.
        const padTop = index === 0 && marks.length ? 32 : 8;
        const height = padTop + plotHeight + pad.bottom;
        const y = (value: number) => padTop + (1 - value / top) * plotHeight;
        // Vertical strokes at each change's time, one path per kind.
        const markPath = (guard: boolean) =>
          marks
            .filter((mark) => mark.guard === guard)
            .map((mark) => `M${x(new Date(mark.at).getTime() / 60_000).toFixed(1)} ${index === 0 ? 4 : padTop}V${height - pad.bottom}`)
            .join('');
        const label = `${title} of ${remote}, stable and canary, from ${clock(from)} to ${clock(to)} UTC, on a scale from 0 to ${show(top)}; ${described}. The table below has every number.`;
        return (
          <figure key={key} className="panel">
            <figcaption>{title}</figcaption>
            <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
              {[0, top / 2, top].map((value) => (
                <g key={value}>
                  <line x1={pad.left} y1={y(value)} x2={width - pad.right} y2={y(value)} className={value === 0 ? 'axis' : 'grid'} />
                  <text x={pad.left - 4} y={y(value) + 4} className="tick" textAnchor="end">
                    {show(value)}
                  </text>
                </g>
              ))}
              {ticks.map((minute) => (
                <g key={minute}>
                  <line x1={x(minute)} y1={y(0)} x2={x(minute)} y2={y(0) + 4} className="axis" />
                  <text x={x(minute)} y={height - 4} className="tick" textAnchor="middle">
                    {clock(minute)}
                  </text>
                </g>
              ))}
              {index === 0 && <MarkLabels marks={marks} x={x} y={12} right={width} />}
              <path d={markPath(true)} className="mark guard" />
              <path d={markPath(false)} className="mark change" />
              <path d={path(stable, key, x, y)} className="series stable" />
              <path d={path(canary, key, x, y)} className="series canary" />
            </svg>
          </figure>
        );
      })}
      <Disclosure summary="Table of the chart's numbers">{() => <NumbersTables remote={remote} stable={stable} canary={canary} marks={marks} />}</Disclosure>
    </section>
  );
}
