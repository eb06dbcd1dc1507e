/**
 * @jest-environment node
 */
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxFolder, sandboxUser, startRenderProcess } from './renderProcess';

// A render process as the shell's server starts it, running a probe instead of the render script:
// what it can reach is what a release's code can reach.

const PROBE = `
const attempt = (what) => { try { what(); return 'ALLOWED'; } catch (error) { return error.code || error.message; } };
process.send({
  env: Object.keys(process.env),
  uid: process.getuid(),
  readsShadow: attempt(() => require('fs').readFileSync('/etc/shadow')),
  readsServerFiles: attempt(() => require('fs').readFileSync(process.argv[2] || '/proc/1/environ')),
  readsOwnScript: attempt(() => require('fs').readFileSync(__filename)),
  writes: attempt(() => require('fs').writeFileSync(require('os').tmpdir() + '/render-probe-' + process.pid, 'x')),
  spawns: attempt(() => require('child_process').execFileSync('true')),
  threads: attempt(() => new (require('worker_threads').Worker)('1', { eval: true })),
}, () => process.exit(0));
`;

let build: string;
beforeAll(() => {
  build = mkdtempSync(join(tmpdir(), 'netnet-render-build-'));
  mkdirSync(build, { recursive: true });
  writeFileSync(join(build, 'renderWorker.js'), PROBE);
  writeFileSync(join(build, 'pageServer.js'), '// the shell server: never copied for a render process');
});
afterAll(() => rmSync(build, { recursive: true, force: true }));

it('holds no environment, reads only its own script, writes nothing, starts no process or thread', async () => {
  process.env.NETNET_TICKET_SECRET = 'a-secret-the-render-process-must-not-see';
  const folder = sandboxFolder(build);
  try {
    const child = startRenderProcess({ dir: folder.dir, script: folder.script, user: sandboxUser(), heapMb: 64 });
    const [report] = (await once(child, 'message')) as [Record<string, unknown>];
    expect(report).toMatchObject({
      env: [],
      readsShadow: 'ERR_ACCESS_DENIED',
      readsServerFiles: 'ERR_ACCESS_DENIED',
      readsOwnScript: 'ALLOWED',
      writes: 'ERR_ACCESS_DENIED',
      spawns: 'ERR_ACCESS_DENIED',
      threads: 'ERR_ACCESS_DENIED',
    });
    // As root, the OS closes the rest too: the process is not root.
    if (process.getuid?.() === 0) expect(report.uid).not.toBe(0);
  } finally {
    delete process.env.NETNET_TICKET_SECRET;
    folder.remove();
  }
});

it('copies only the render process’s own code out of the build', () => {
  const folder = sandboxFolder(build);
  try {
    expect(readdirSync(folder.dir)).toEqual(['renderWorker.js']);
  } finally {
    folder.remove();
  }
});
