// npm reads the workspaces from package.json before any script runs, so that list cannot be
// derived from the site table (./table.cjs); this keeps the two in step. Run with `node --test`.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const site = require('./table.cjs');
const { workspaces } = require('../package.json');

// The e2e suite, the control plane, the server kit and this table's own workspace are workspaces
// but not apps of the site: none is built, served on a port of its own or tested by Jest (they run
// from source, with node:test, and the servers that use the kit bundle it).
const NOT_APPS = ['e2e', 'control-plane', 'server-kit', 'render-sandbox', 'site'];

test("every app of the site table is an npm workspace, and every workspace but e2e, the control plane, the server kit, the render sandbox and the site's own is an app", () => {
  assert.deepEqual(
    workspaces.filter((workspace) => !NOT_APPS.includes(workspace)).sort(),
    Object.keys(site.apps).sort(),
  );
});

test('each app that serves has a port of its own', () => {
  // The console is served by the control-plane API, on its port.
  const served = Object.keys(site.apps).filter((app) => !['library', 'console'].includes(site.apps[app].kind));
  const ports = served.map((app) => site.ports[app]);
  assert.ok(ports.every((port) => Number.isInteger(port)));
  assert.equal(new Set(ports).size, ports.length);
});

test('the remotes of the site table are exactly the remotes the page table gives pages to', () => {
  // The page table is TypeScript in shared (the contract); webpack reads it the same way.
  const { createJiti } = require('jiti');
  const { remoteNames, pageList } = createJiti(import.meta.url)('../shared/src/pages.ts');
  assert.deepEqual([...site.remotes].sort(), [...remoteNames].sort());
  assert.deepEqual([...new Set(pageList.map((page) => page.remote))].sort(), [...remoteNames].sort());
});
