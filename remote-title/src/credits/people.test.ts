import { canExpand, castNames, directorNames, visibleNames } from './people';

const person = (name: string, job = 'Actor') => ({ id: name.length, name, job });
const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'];

it('shows 4 names collapsed and 7 expanded', () => {
  expect(visibleNames(names, false)).toEqual(['A', 'B', 'C', 'D']);
  expect(visibleNames(names, true)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
  expect(visibleNames(['A', 'B'], true)).toEqual(['A', 'B']);
});

it('offers more only when there are more than 4 names', () => {
  expect(canExpand(names.slice(0, 4))).toBe(false);
  expect(canExpand(names.slice(0, 5))).toBe(true);
});

it('lists as directors only the crew whose job is Director, once each', () => {
  const crew = [
    person('Writer One', 'Screenplay'),
    person('Lana', 'Director'),
    person('Producer', 'Producer'),
    person('Lilly', 'Director'),
    person('Lana', 'Director'),
    person('Assistant', 'Assistant Director'),
  ];
  expect(directorNames({ crew })).toEqual(['Lana', 'Lilly']);
});

it('keeps the cast in billing order without blanks or repeats', () => {
  expect(castNames({ cast: [person('Keanu'), person(' '), person('Carrie-Anne'), person('Keanu')] })).toEqual([
    'Keanu',
    'Carrie-Anne',
  ]);
});
