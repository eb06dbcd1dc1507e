// `--percent` as typed at the keyboard: whole numbers 0–100 in plain decimal, "%" allowed after.
// Run: node --import tsx --test control-plane/src/rollouts/commands.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePercent } from './commands.ts';
import { DeployError } from '../errors.ts';

describe('parsePercent', () => {
  for (const [text, expected] of [['0', 0], ['7', 7], ['10', 10], ['10%', 10], ['99', 99], ['100', 100], ['100%', 100]]) {
    it(`reads ${JSON.stringify(text)} as ${expected}`, () => assert.equal(parsePercent(text), expected));
  }
  const refused = ['', ' ', '-1', '101', '1000', 'ten', '0x10', '0o7', '0b1', '1e1', ' 5', '5 ', '\t5', '10.5', '10.0', '.5',
    '+5', '-0', '05', '007', '10%%', '%10', 'Infinity', 'NaN', '１０', '10 %', undefined];
  for (const text of refused) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(() => parsePercent(text), (error) => error instanceof DeployError && /whole number from 0 to 100/.test(error.message));
    });
  }
});
