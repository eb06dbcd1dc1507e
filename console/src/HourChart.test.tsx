import { render, screen } from '@testing-library/react';
import { HourChart } from './HourChart';
import type { Mark, Minute } from './types';

// The hour's chart as a release owner reads it: each change and guard decision named where it
// happened, and axes with round values between their ends.

const from = Date.parse('2026-11-28T09:03:00Z') / 60_000;
const to = from + 59;
const minutes = (sessions: number, failures: number): Minute[] =>
  Array.from({ length: 60 }, (_, index) => ({ minute: from + index, sessions, failures, rate: failures / sessions, lcpP75: 1_700 }));
const marks: Mark[] = [
  { at: '2026-11-28T09:30:10.000Z', guard: false, actor: 'person:title-owner', action: 'canary', reason: 'clean hour at 10 %' },
  { at: '2026-11-28T09:45:40.000Z', guard: true, actor: 'guard@host:1', action: 'rollback', reason: 'failure rate: canary 1.5.0 failed 30 of 300 sessions' },
];

function draw() {
  render(<HourChart remote="remote-title" from={from} to={to} stable={minutes(300, 3)} canary={minutes(30, 1)} marks={marks} />);
  const [sessions, rate, lcp] = screen.getAllByRole('img');
  return { sessions: sessions!, rate: rate!, lcp: lcp! };
}

const ticksOf = (panel: Element) => [...panel.querySelectorAll('text.tick')].map((tick) => tick.textContent);

it('names each mark on the chart: the change, and the guard when the decision was its', () => {
  const { sessions, rate } = draw();
  expect([...sessions.querySelectorAll('text.mark-label')].map((label) => [label.lastChild?.textContent, label.getAttribute('class')])).toEqual([
    ['canary', 'mark-label change'],
    ['guard rollback', 'mark-label guard'],
  ]);
  // Named once, above the first panel; a screen reader hears them in every panel's label.
  expect(rate.querySelectorAll('text.mark-label')).toHaveLength(0);
  expect(rate).toHaveAccessibleName(/changes marked: 09:30 canary by person:title-owner; 09:45 guard rollback by guard@host:1\. /);
});

it('names marks made at about the same time once, each of them in its tooltip', () => {
  const close: Mark[] = [
    { at: '2026-11-28T09:30:10.000Z', guard: false, actor: 'person:title-owner', action: 'canary', reason: null },
    { at: '2026-11-28T09:31:20.000Z', guard: false, actor: 'person:title-owner', action: 'canary', reason: null },
    { at: '2026-11-28T09:50:00.000Z', guard: true, actor: 'guard@host:1', action: 'rollback', reason: null },
    { at: '2026-11-28T09:51:00.000Z', guard: false, actor: 'person:title-owner', action: 'stable', reason: null },
  ];
  render(<HourChart remote="remote-title" from={from} to={to} stable={[]} canary={[]} marks={close} />);
  const labels = [...screen.getAllByRole('img')[0]!.querySelectorAll('text.mark-label')];
  expect(labels.map((label) => label.lastChild?.textContent)).toEqual(['canary ×2', '2 changes']);
  expect(labels.map((label) => label.querySelector('title')?.textContent)).toEqual([
    '09:30 canary by person:title-owner; 09:31 canary by person:title-owner',
    '09:50 guard rollback by guard@host:1; 09:51 stable by person:title-owner',
  ]);
});

it('labels each axis with round values: zero, half and the top, and every ten minutes', () => {
  const { sessions, rate, lcp } = draw();
  const times = ['09:10', '09:20', '09:30', '09:40', '09:50', '10:00'];
  expect(ticksOf(sessions)).toEqual(['0', '200', '400', ...times]);
  expect(ticksOf(rate)).toEqual(['0.0 %', '2.5 %', '5.0 %', ...times]);
  expect(ticksOf(lcp)).toEqual(['0 ms', '1000 ms', '2000 ms', ...times]);
  expect(sessions).toHaveAccessibleName(/^Sessions per minute of remote-title, stable and canary, from 09:03 to 10:02 UTC, on a scale from 0 to 400;/);
});
