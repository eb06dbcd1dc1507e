// One version rule, checked against the semver package: isVersion accepts exactly what
// semver.valid() gives back unchanged, and the answer written here.
import semver from 'semver';
import { isVersion } from './version.ts';

const table: Array<[string, boolean]> = [
  ['1.0.0', true],
  ['0.0.0', true],
  ['1.4.0-rc.1', true],
  ['1.0.0-0a', true],
  ['1.0.0-x-y.z--', true],
  ['1.0.0-99999999999999999999', true],
  ['9007199254740991.0.0', true],
  ['1.0', false],
  ['1', false],
  ['01.0.0', false],
  ['1.01.0', false],
  ['v1.0.0', false],
  ['=1.0.0', false],
  [' 1.0.0', false],
  ['1.0.0 ', false],
  ['1.0.0-', false],
  ['1.0.0-01', false],
  ['1.0.0-a..b', false],
  ['1.0.0+x', false],
  ['1.0.0-alpha+001', false],
  ['9007199254740992.0.0', false],
  ['../1.0.0', false],
  ['1.0.0/..', false],
  ['latest', false],
  ['', false],
  [`1.0.0-${'a'.repeat(251)}`, false],
  [`1.0.0-${'a'.repeat(250)}`, true],
];

describe.each(table.map(([version, expected]) => ({ version, expected })))('$version', ({ version, expected }) => {
  it(`is ${expected ? 'a version' : 'refused'}`, () => {
    expect(isVersion(version)).toBe(expected);
  });
  it(`is ${expected ? 'a version' : 'refused'} by the semver package`, () => {
    expect(semver.valid(version) === version).toBe(expected);
  });
});

it('refuses what is not a string', () => {
  expect([undefined, null, 1, {}].map(isVersion)).toEqual([false, false, false, false]);
});
