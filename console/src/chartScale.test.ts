import { minuteTicks, roundTop } from './chartScale';

// The round values the hour chart's axes are labelled with.

it.each([
  [0.05, false, 0.05],
  [0.031, false, 0.04],
  [0.12, false, 0.2],
  [300, true, 400],
  [1, true, 2],
  [0, true, 2],
  [1_830, true, 2_000],
  [5_000, true, 5_000],
  [7_100, true, 10_000],
])('rounds %p (counts: %p) up to %p', (top, whole, expected) => {
  expect(roundTop(top, { whole })).toBeCloseTo(expected, 9);
});

it('marks the minutes on a multiple of ten between the ends', () => {
  expect(minuteTicks(3, 62)).toEqual([10, 20, 30, 40, 50, 60]);
  expect(minuteTicks(10, 20)).toEqual([10, 20]);
});
