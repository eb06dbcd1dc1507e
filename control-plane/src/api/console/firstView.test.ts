// The console's page carries the session and the first view's figures as data, never as markup:
// whatever a person's name or a release's notes hold, it stays inside the JSON block.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pageWith, type Boot } from './firstView.ts';

const html = '<!doctype html><html><head><title>Netnet release console</title></head><body><div id="root"></div></body></html>';
const log = { warn: () => {} };

it('keeps text that looks like markup or a replacement pattern inside the boot block', () => {
  const person = "ana$'</script><script>alert(1)</script>$&";
  const boot: Boot = { session: { person }, first: null };
  const page = pageWith(html, boot, log);
  const block = page.match(/<script type="application\/json" id="console-boot">(.*?)<\/script><\/body><\/html>$/s);
  assert.ok(block, 'the page ends with its boot block');
  assert.deepEqual(JSON.parse(block[1]!), boot);
  assert.equal(page.match(/<script/g)?.length, 1, 'no other script element');
});
