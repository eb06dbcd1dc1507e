/**
 * @jest-environment node
 */
// One version rule on both sides: the shell's isVersion (remote map, QA pins) and the release
// tooling's (control-plane/src/deploy/tree.ts, the semver package) give the same answer for every version
// in this table, and the answer written here.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isVersion } from './version';

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

// The tooling is TypeScript, which Node runs under the tsx loader as the commands do.
const tsx = pathToFileURL(require.resolve('tsx')).href;

function toolingAnswers(versions: string[]): boolean[] {
  const tree = resolve(__dirname, '../../../control-plane/src/deploy/tree.ts');
  const program = `import { isVersion } from ${JSON.stringify(tree)};
    console.log(JSON.stringify(JSON.parse(process.argv[1]).map(isVersion)));`;
  const out = execFileSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', program, JSON.stringify(versions)], { encoding: 'utf8' });
  return JSON.parse(out) as boolean[];
}

const tooling = toolingAnswers(table.map(([version]) => version));

describe.each(table.map(([version, expected], index) => ({ version, expected, index })))('$version', ({ version, expected, index }) => {
  it(`is ${expected ? 'a version' : 'refused'} in the shell`, () => {
    expect(isVersion(version)).toBe(expected);
  });
  it(`is ${expected ? 'a version' : 'refused'} by the release tooling`, () => {
    expect(tooling[index]).toBe(expected);
  });
});

it('refuses what is not a string', () => {
  expect([undefined, null, 1, {}].map(isVersion)).toEqual([false, false, false, false]);
});
