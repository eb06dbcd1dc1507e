// A QA token's id is typed on command lines (`npm run qa-token -- revoke <id>`).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { newQaTokenId } from './qaToken.ts';

it('makes ids a command line never takes for an option, in the token format', () => {
  const ids = Array.from({ length: 2_000 }, newQaTokenId);
  assert.deepEqual(ids.filter((id) => id.startsWith('-')), []);
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(new Set(ids).size, ids.length);
});
