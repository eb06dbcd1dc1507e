// Uploaded releases (./upload.ts): the happy path, the retried pipeline, and the hostile-upload
// suite — every kind refused with a clear message, with nothing published, the origin folder and
// the store as they were. Against a real PostgreSQL (../store/testDatabase.ts). The build uploaded
// is remote-title's real production build when remote-title/dist exists (`npm run build -w
// remote-title`), else a small stand-in with the same layout.
// Run: node --import tsx --test control-plane/src/releases/upload.test.ts
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Database } from '../store/database.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';
import { readApiConfig } from '../config.ts';
import { checkServerBuild, publishUpload, UPLOAD_LIMITS, UploadRefused, type UploadResult } from './upload.ts';
import { checkCompressedCopies, releaseFiles } from './verify.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const realBuild = join(root, 'remote-title', 'dist');
const REMOTE = 'remote-title';

let db: TestDatabase;
let deploy: string;
let work: string;
const table: { kind: string; status: number | string; message: string }[] = [];

/** A copy of remote-title's real build taken once, if a whole one is at hand (null: the stand-in is used). */
let real: string | null = null;

before(async () => {
  db = await testDatabase({ max: 2 });
  deploy = mkdtempSync(join(tmpdir(), 'netnet-origin-'));
  work = mkdtempSync(join(tmpdir(), 'netnet-uploads-'));
  // Copied once and checked whole (a build may be under way in the checkout meanwhile).
  if (existsSync(realBuild)) {
    const copy = join(work, 'real-build');
    try {
      cpSync(realBuild, copy, { recursive: true });
      const whole = ['mf-manifest.json', 'remoteEntry.js', 'server/remoteEntry.js'].every((file) => existsSync(join(copy, file)));
      if (whole && (await checkCompressedCopies(copy, 'the build')) > 0) real = copy;
    } catch {
      // Changed while it was copied: the stand-in is used.
    }
  }
});
after(async () => {
  await db?.close();
  rmSync(deploy, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  if (table.length > 0) {
    const width = Math.max(...table.map((row) => row.kind.length));
    const lines = table.map(({ kind, status, message }) => `${kind.padEnd(width)}  ${String(status)}  ${message.replace(/\n\s*/g, ' ⏎ ')}`);
    console.log(`\nhostile uploads (${table.length} kinds; ${real !== null ? "remote-title's real build" : 'a stand-in build'}):\n${lines.join('\n')}\n`);
  }
});

// ---------------------------------------------------------------- builds

let copies = 0;
/** A build of remote-title as `version` in a folder of its own: the real one, else a stand-in. */
function buildAs(version: string): string {
  const dir = join(work, `build-${(copies += 1)}`);
  if (real !== null) {
    cpSync(real, dir, { recursive: true });
    editManifest(dir, (manifest) => {
      (manifest.metaData as { buildInfo: { buildVersion: string } }).buildInfo.buildVersion = version;
    });
    return dir;
  }
  mkdirSync(join(dir, 'server'), { recursive: true });
  const entry = `/* remote-title ${version} */ self.remote_title = {};\n`;
  writeFileSync(join(dir, 'remoteEntry.js'), entry);
  writeFileSync(join(dir, 'remoteEntry.js.br'), brotliCompressSync(entry));
  writeFileSync(join(dir, 'remoteEntry.js.gz'), gzipSync(entry));
  writeFileSync(join(dir, 'main.js'), 'console.log("remote-title");\n');
  // The smallest container the check renders: every page it exposes renders nothing.
  writeFileSync(join(dir, 'server', 'remoteEntry.js'), 'module.exports = { init() {}, get() { return Promise.resolve(() => ({ default: () => null })); } };\n');
  const react = JSON.parse(readFileSync(join(root, 'shared', 'package.json'), 'utf8')).dependencies.react as string;
  writeFileSync(
    join(dir, 'mf-manifest.json'),
    JSON.stringify({ name: 'remote_title', metaData: { buildInfo: { buildVersion: version } }, shared: [{ name: 'react', requiredVersion: react, version: react.replace(/^\D+/, '') }] }),
  );
  return dir;
}

/** Rewrites a build's manifest (and drops its precompressed copies, which would be stale). */
function editManifest(dir: string, edit: (manifest: Record<string, unknown>) => void) {
  const path = join(dir, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  edit(manifest);
  writeFileSync(path, JSON.stringify(manifest));
  for (const suffix of ['.br', '.gz']) rmSync(path + suffix, { force: true });
}

const sri = (content: Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

// ---------------------------------------------------------------- tar, by hand (hostile entries included)

interface Entry {
  name: string;
  data?: Buffer | string;
  /** The tar type flag: '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' folder, '6' fifo, 'S' GNU sparse. */
  type?: string;
  linkname?: string;
  /** The size the header claims (default: the data's). */
  size?: number;
}

function field(buffer: Buffer, offset: number, length: number, value: string) {
  buffer.write(value, offset, length, 'utf8');
}
const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, '0')}\0`;

function header({ name, type = '0', linkname = '', size = 0 }: Entry & { size: number }): Buffer {
  const block = Buffer.alloc(512);
  field(block, 0, 100, name);
  field(block, 100, 8, octal(type === '5' ? 0o755 : 0o644, 8));
  field(block, 108, 8, octal(0, 8));
  field(block, 116, 8, octal(0, 8));
  field(block, 124, 12, octal(size, 12));
  field(block, 136, 12, octal(Math.floor(Date.now() / 1000), 12));
  field(block, 148, 8, '        ');
  field(block, 156, 1, type);
  field(block, 157, 100, linkname);
  field(block, 257, 6, 'ustar\0');
  field(block, 263, 2, '00');
  field(block, 329, 8, octal(0, 8));
  field(block, 337, 8, octal(0, 8));
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A tar archive of these entries, ended by its two zero blocks unless `end` is false. */
function tar(entries: Entry[], { end = true } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = entry.data === undefined ? Buffer.alloc(0) : Buffer.from(entry.data);
    parts.push(header({ ...entry, size: entry.size ?? data.length }), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  if (end) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** A build folder's files as tar entries (folders first, as tar writes them). */
function entriesOf(dir: string, prefix = ''): Entry[] {
  const files = releaseFiles(dir);
  const folders = [...new Set(files.filter((path) => path.includes('/')).map((path) => path.slice(0, path.lastIndexOf('/'))))];
  return [
    ...folders.map((name) => ({ name: `${prefix}${name}/`, type: '5' })),
    ...files.map((name) => ({ name: `${prefix}${name}`, data: readFileSync(join(dir, name)) })),
  ];
}

const tgz = (entries: Entry[], options?: { end?: boolean }) => gzipSync(tar(entries, options));

// ---------------------------------------------------------------- upload and what must not change

const GZIP = 'application/gzip';
const TAR = 'application/x-tar';

/** The body as a request streams it: 64 KiB at a time. */
function bodyOf(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65536) chunks.push(bytes.subarray(at, at + 65536));
  return Readable.from(chunks, { objectMode: false });
}

interface Upload {
  bytes: Buffer;
  contentType?: string | undefined;
  version?: string;
  remote?: string;
  browserOnly?: boolean;
  env?: NodeJS.ProcessEnv;
  /** The body as a stream of its own (default: `bytes`, 64 KiB at a time). */
  body?: Readable;
}

/** The API's config as an upload reads it, from `env` laid over this test's working folder. */
const settingsFrom = (env: NodeJS.ProcessEnv) => readApiConfig({ NETNET_DEPLOY_DIR: deploy, ...env });

const upload = ({ bytes, version = '1.0.0', remote = REMOTE, browserOnly, env = {}, body, ...rest }: Upload): Promise<UploadResult> =>
  publishUpload({ remote, version, body: body ?? bodyOf(bytes), contentType: 'contentType' in rest ? rest.contentType : GZIP, browserOnly, db, settings: settingsFrom(env) });

/** Every file under the origin folder with its hash, and every row of the releases table. */
async function state() {
  const files = existsSync(deploy)
    ? readdirSync(deploy, { recursive: true, withFileTypes: true })
        .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
        .sort()
        .map((path) => (statSync(path).isFile() ? `${path} ${sri(readFileSync(path))}` : `${path}/`))
    : [];
  const { rows } = await db.pool.query('SELECT remote, version, integrity FROM releases ORDER BY remote, version');
  return { files, rows };
}

/** How long the last refusal took, in ms. */
let elapsed = 0;

/** The upload is refused with `status` and a message matching `message`; nothing changed. */
async function refused(kind: string, request: Upload, status: number, message: RegExp): Promise<void> {
  const before = await state();
  const started = Date.now();
  let error: unknown;
  try {
    await upload(request);
  } catch (thrown) {
    error = thrown;
  }
  table.push({ kind, status: error instanceof UploadRefused ? error.status : 'not refused', message: error instanceof Error ? error.message : String(error) });
  assert.ok(error instanceof UploadRefused, `${kind}: refused with an UploadRefused, not ${String(error)}`);
  assert.equal(error.status, status, `${kind}: ${error.message}`);
  assert.match(error.message, message, kind);
  assert.deepEqual(await state(), before, `${kind}: the origin folder and the store are unchanged`);
  assert.deepEqual(readdirSync(deploy).filter((name) => name.startsWith('.upload-')), [], `${kind}: no staging folder left`);
  elapsed = Date.now() - started;
}

// ---------------------------------------------------------------- tests

describe('publishUpload', () => {
  it('publishes a build uploaded as a tar.gz made by tar(1): the release and its files in the store, a working copy here', async (t) => {
    const build = buildAs('1.0.0');
    let bytes: Buffer;
    try {
      bytes = execFileSync('tar', ['-C', build, '-czf', '-', '.'], { maxBuffer: 256 * 1024 * 1024 });
    } catch {
      t.diagnostic('no tar(1) here: the archive is made by the test');
      bytes = tgz(entriesOf(build));
    }
    const started = Date.now();
    const result = await upload({ bytes });
    t.diagnostic(`published ${result.files} files, ${result.bytes} bytes, from a ${bytes.length}-byte upload in ${Date.now() - started} ms`);
    const files = releaseFiles(build);
    // The build tool's stamp (.built) is no file of the release: the origin never serves a dotfile.
    const served = files.filter((path) => !path.startsWith('.'));
    assert.ok(served.length < files.length);
    assert.deepEqual(result, { outcome: 'published', remote: REMOTE, version: '1.0.0', files: served.length + 1, bytes: result.bytes });
    const stored = await db.pool.query<{ path: string }>('SELECT path FROM release_files ORDER BY path');
    assert.deepEqual(stored.rows.map((row) => row.path), [...served, 'integrity.json'].sort());
    const release = join(deploy, REMOTE, '1.0.0');
    for (const path of files) assert.ok(readFileSync(join(release, path)).equals(readFileSync(join(build, path))), path);
    const record = JSON.parse(readFileSync(join(release, 'integrity.json'), 'utf8')) as { files: Record<string, string> };
    assert.deepEqual(Object.keys(record.files).sort(), files);
    const { rows } = await db.pool.query<{ remote: string; version: string; integrity: Record<string, string> }>('SELECT remote, version, integrity FROM releases');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.version, '1.0.0');
    assert.equal(rows[0]?.integrity['remoteEntry.js'], sri(readFileSync(join(build, 'remoteEntry.js'))));
    assert.equal(rows[0]?.integrity['server/remoteEntry.js'], sri(readFileSync(join(build, 'server/remoteEntry.js'))));
    assert.equal(rows[0]?.integrity['integrity.json'], sri(readFileSync(join(release, 'integrity.json'))));
    assert.equal(statSync(release).mode & 0o777, 0o755);
    assert.deepEqual(readdirSync(deploy).filter((name) => name.startsWith('.upload-')), []);
  });

  it('answers a retry with the same files "unchanged" and changes nothing, however the archive was made', async () => {
    const before = await state();
    const build = buildAs('1.0.0');
    assert.equal((await upload({ bytes: tar(entriesOf(build)), contentType: TAR })).outcome, 'unchanged');
    // With the integrity.json the release now carries, and the files under ./ as tar(1) names them.
    cpSync(join(deploy, REMOTE, '1.0.0', 'integrity.json'), join(build, 'integrity.json'));
    assert.equal((await upload({ bytes: tgz(entriesOf(build, './')) })).outcome, 'unchanged');
    assert.deepEqual(await state(), before);
  });

  it('publishes a browser-only release without a server build', async () => {
    const build = buildAs('1.0.1');
    rmSync(join(build, 'server'), { recursive: true });
    // An empty file and a nested folder come through as they are.
    mkdirSync(join(build, 'assets', 'fonts'), { recursive: true });
    writeFileSync(join(build, 'assets', 'fonts', 'empty.txt'), '');
    const result = await upload({ bytes: tgz(entriesOf(build)), version: '1.0.1', browserOnly: true });
    assert.equal(result.outcome, 'published');
    assert.equal(existsSync(join(deploy, REMOTE, '1.0.1', 'server')), false);
    assert.equal(readFileSync(join(deploy, REMOTE, '1.0.1', 'assets', 'fonts', 'empty.txt'), 'utf8'), '');
  });

  it('lets one of two uploads of a version at once publish it: the same files are "unchanged", other files 409', async () => {
    const bytes = tgz(entriesOf(buildAs('1.1.0')));
    const same = await Promise.all([upload({ bytes, version: '1.1.0' }), upload({ bytes, version: '1.1.0' })]);
    assert.deepEqual(same.map((result) => result.outcome).sort(), ['published', 'unchanged']);

    const other = buildAs('1.2.0');
    writeFileSync(join(other, 'extra.txt'), 'other bytes');
    const results = await Promise.allSettled([upload({ bytes: tgz(entriesOf(buildAs('1.2.0'))), version: '1.2.0' }), upload({ bytes: tgz(entriesOf(other)), version: '1.2.0' })]);
    const published = results.filter((result) => result.status === 'fulfilled');
    const conflicts = results.filter((result) => result.status === 'rejected').map((result) => result.reason as UploadRefused);
    assert.equal(published.length, 1);
    assert.equal(conflicts.length, 1);
    assert.equal(conflicts[0]?.status, 409);
    assert.deepEqual(readdirSync(deploy).filter((name) => name.startsWith('.upload-')), []);
  });

  it('publishes nothing, and keeps no working copy, when the store cannot take it', async () => {
    const before = await state();
    // It answered whether the version is published, then went down before the publish.
    const down = { pool: { query: () => Promise.resolve({ rows: [] }), connect: () => Promise.reject(new Error('the store is down')) } } as unknown as Database;
    await assert.rejects(
      publishUpload({ remote: REMOTE, version: '1.3.0', body: bodyOf(tgz(entriesOf(buildAs('1.3.0')))), contentType: GZIP, db: down, settings: settingsFrom({}) }),
      /remote-title 1\.3\.0 was not published: the store did not take it \(the store is down\)/,
    );
    assert.deepEqual(await state(), before);
    assert.equal(existsSync(join(deploy, REMOTE, '1.3.0')), false);
  });

  describe('hostile uploads: each refused with a clear message, nothing published, the origin and the store unchanged', () => {
    const V = '2.0.0';
    const good = () => entriesOf(buildAs(V));
    const file = (name: string, data = 'x') => ({ name, data });

    it('path traversal', () => refused('path traversal (../x)', { bytes: tgz([...good(), file('../x')]), version: V }, 422, /"\.\.\/x" climbs out of the release/));
    it('path traversal inside a path', () =>
      refused('path traversal (assets/../../x)', { bytes: tgz([...good(), file('assets/../../x')]), version: V }, 422, /climbs out of the release/));
    it('absolute path', () => refused('absolute path (/tmp/x)', { bytes: tgz([...good(), file('/tmp/netnet-x')]), version: V }, 422, /is an absolute path/));
    it('symlink', () =>
      refused('symlink (to /etc/passwd)', { bytes: tgz([...good(), { name: 'passwd', type: '2', linkname: '/etc/passwd' }]), version: V }, 422, /"passwd" is a symbolic link/));
    it('hard link', () =>
      refused('hard link (to /etc/passwd)', { bytes: tgz([...good(), { name: 'passwd', type: '1', linkname: '/etc/passwd' }]), version: V }, 422, /"passwd" is a hard link/));
    it('character device', () =>
      refused('character device (tar type 3)', { bytes: tgz([...good(), { name: 'null', type: '3' }]), version: V }, 422, /"null" is a character device file/));
    it('block device', () => refused('block device (tar type 4)', { bytes: tgz([...good(), { name: 'sda', type: '4' }]), version: V }, 422, /"sda" is a block device file/));
    it('fifo', () => refused('fifo (tar type 6)', { bytes: tgz([...good(), { name: 'pipe', type: '6' }]), version: V }, 422, /"pipe" is a FIFO/));
    it('GNU sparse file', () =>
      refused('GNU sparse entry (tar type S)', { bytes: tgz([...good(), { name: 'sparse', type: 'S', data: 'x' }]), version: V }, 422, /"sparse" is of a kind this server does not accept/));
    it('a 2 GB sparse file: refused from its header, nothing written', async (t) => {
      // The header claims 2 GB; the body holds 1 KiB of it, as a sparse file's archive would start.
      const bytes = Buffer.concat([tar(good(), { end: false }), header({ name: 'huge.bin', size: 2 * 1024 ** 3 }), Buffer.alloc(1024)]);
      await refused('a 2 GB file (tar header claiming 2 GB)', { bytes: gzipSync(bytes), version: V }, 413, /"huge\.bin" is 2147483648 bytes; a file of a release may hold at most 16 MiB/);
      t.diagnostic(`refused in ${elapsed} ms (bound 5000 ms)`);
      assert.ok(elapsed < 5000, `refused in ${elapsed} ms`);
    });
    for (const format of ['gnu', 'pax']) {
      it(`a 2 GB sparse file archived by tar --sparse --format=${format}`, async (t) => {
        const dir = mkdtempSync(join(work, 'sparse-'));
        cpSync(buildAs(V), dir, { recursive: true });
        writeFileSync(join(dir, 'huge.bin'), '');
        truncateSync(join(dir, 'huge.bin'), 2 * 1024 ** 3);
        let bytes: Buffer;
        try {
          bytes = execFileSync('tar', ['-C', dir, '--sparse', `--format=${format}`, '-czf', '-', '.'], { maxBuffer: 256 * 1024 * 1024 });
        } catch {
          t.skip('no GNU tar here');
          return;
        }
        const message = format === 'gnu' ? /"\.\/huge\.bin" is of a kind this server does not accept/ : /"\.\/huge\.bin" is a sparse file of 2147483648 bytes/;
        await refused(`a 2 GB sparse file (tar --sparse --format=${format}, ${bytes.length} bytes)`, { bytes, version: V }, 422, message);
      });
    }
    it('a staging folder left by a crash an hour ago is swept; a fresh one is not', async () => {
      const old = join(deploy, '.upload-crashed');
      const fresh = join(deploy, '.upload-running');
      mkdirSync(join(old, 'release'), { recursive: true });
      mkdirSync(join(fresh, 'release'), { recursive: true });
      const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
      utimesSync(old, hourAgo, hourAgo);
      await assert.rejects(upload({ bytes: Buffer.alloc(0), contentType: TAR, version: V }), UploadRefused);
      assert.equal(existsSync(old), false);
      assert.equal(existsSync(fresh), true);
      rmSync(fresh, { recursive: true });
    });
    it('a compression bomb: 1.5 GB of zeros in a 1.5 MB gzip, stopped at the limit', async (t) => {
      const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
      const bomb = Buffer.concat([gzipSync(tar(good(), { end: false })), ...Array.from({ length: 96 }, () => member)]);
      await refused(`compression bomb (${Math.round(bomb.length / 1024)} KiB gzip → 1.5 GiB)`, { bytes: bomb, version: V }, 413, /expands past 80 MiB once decompressed/);
      t.diagnostic(`refused in ${elapsed} ms (bound 10000 ms)`);
      assert.ok(elapsed < 10_000, `refused in ${elapsed} ms`);
    });
    it('files adding up past the total limit', () => {
      const big = Buffer.alloc(15 * 1024 * 1024, 0x61);
      return refused('total size over the limit (5 × 15 MiB)', { bytes: tgz([...good(), ...[1, 2, 3, 4, 5].map((n) => ({ name: `big-${n}.bin`, data: big }))]), version: V }, 413, /add up to more than 64 MiB/);
    });
    it('a file over the per-file limit', () =>
      refused('a file over the per-file limit (17 MiB)', { bytes: tgz([...good(), { name: 'big.bin', data: Buffer.alloc(17 * 1024 * 1024) }]), version: V }, 413, /"big\.bin" is 17825792 bytes/));
    it('too many files', () =>
      refused(`too many files (${UPLOAD_LIMITS.entries + 1})`, { bytes: tgz([...good(), ...Array.from({ length: UPLOAD_LIMITS.entries + 1 }, (_, n) => file(`many/${n}.txt`))]), version: V }, 413, /more than 2000 files and folders/));
    it('the same path twice', () => refused('the same path twice', { bytes: tgz([...good(), file('main.txt', 'a'), file('./main.txt', 'b')]), version: V }, 422, /holds "main\.txt" twice/));
    it('a control character in a name', () => refused('a control character in a name', { bytes: tgz([...good(), file('a\u001b[31mb')]), version: V }, 422, /has a control character/));
    it('wrong hashes', () => {
      const build = buildAs(V);
      const files = Object.fromEntries(releaseFiles(build).map((path) => [path, sri(readFileSync(join(build, path)))]));
      files['remoteEntry.js'] = sri(Buffer.from('something else'));
      writeFileSync(join(build, 'integrity.json'), JSON.stringify({ algorithm: 'sha384', files }));
      return refused('wrong hashes (integrity.json disagrees)', { bytes: tgz(entriesOf(build)), version: V }, 422, /remoteEntry\.js does not match integrity\.json: its bytes hash to sha384-/);
    });
    it('a hash record naming a file not sent', () => {
      const build = buildAs(V);
      const files = Object.fromEntries(releaseFiles(build).map((path) => [path, sri(readFileSync(join(build, path)))]));
      files['secret.js'] = sri(Buffer.from('x'));
      writeFileSync(join(build, 'integrity.json'), JSON.stringify({ algorithm: 'sha384', files }));
      return refused('integrity.json lists a file not sent', { bytes: tgz(entriesOf(build)), version: V }, 422, /integrity\.json lists secret\.js, which the release does not hold/);
    });
    for (const suffix of ['.br', '.gz']) {
      it(`a stale ${suffix}`, () => {
        const build = buildAs(V);
        writeFileSync(join(build, 'remoteEntry.js'), `${readFileSync(join(build, 'remoteEntry.js'), 'utf8')}\n/* changed after compression */\n`);
        // Only the copy under test is left, so the message names it.
        rmSync(join(build, `remoteEntry.js${suffix === '.br' ? '.gz' : '.br'}`), { force: true });
        return refused(`a stale ${suffix}`, { bytes: tgz(entriesOf(build)), version: V }, 422, new RegExp(`remoteEntry\\.js\\${suffix} is stale`));
      });
    }
    it('a missing server build', () => {
      const build = buildAs(V);
      rmSync(join(build, 'server'), { recursive: true });
      return refused('missing server build', { bytes: tgz(entriesOf(build)), version: V }, 422, /has no server build \(server\/remoteEntry\.js\)/);
    });
    it('a server build that throws on load', () => {
      const build = buildAs(V);
      writeFileSync(join(build, 'server', 'remoteEntry.js'), 'throw new Error("boom at load");\n');
      return refused('server build that throws on load', { bytes: tgz(entriesOf(build)), version: V }, 422, /server build \(server\/remoteEntry\.js\) does not load: boom at load/);
    });
    it('a server build that is no container', () => {
      const build = buildAs(V);
      writeFileSync(join(build, 'server', 'remoteEntry.js'), 'module.exports = 42;\n');
      return refused('server build that is not a container', { bytes: tgz(entriesOf(build)), version: V }, 422, /does not export a Module Federation container/);
    });
    it('a server build reading a file outside its release', () => {
      const build = buildAs(V);
      writeFileSync(join(build, 'server', 'remoteEntry.js'), 'require("fs").readFileSync("/etc/hostname"); module.exports = { get() {}, init() {} };\n');
      return refused('server build reading /etc/hostname', { bytes: tgz(entriesOf(build)), version: V }, 422, /does not load: it reached outside what a render process may touch \(FileSystemRead \/etc\/hostname\)/);
    });
    it('a shared version the shell does not meet', () => {
      const build = buildAs(V);
      editManifest(build, (manifest) => {
        manifest.shared = [{ name: 'react', requiredVersion: '^99.0.0', version: '99.0.0', singleton: true }];
      });
      return refused('shared version the shell does not meet (react ^99)', { bytes: tgz(entriesOf(build)), version: V }, 422, /compatibility gate refuses remote-title 2\.0\.0:\n {2}remote-title 2\.0\.0 needs react \^99\.0\.0; the shell provides \d/);
    });
    it('a wrong content type', () => refused('wrong content type (application/zip)', { bytes: tgz(good()), version: V, contentType: 'application/zip' }, 415, /tar archive .* not application\/zip/));
    it('no content type', () => refused('no content type', { bytes: tgz(good()), version: V, contentType: undefined }, 415, /not a body without a Content-Type/));
    it('a truncated archive', () => {
      const whole = tar(good());
      return refused('truncated tar (cut mid-file)', { bytes: whole.subarray(0, Math.floor(whole.length / 2) + 100), version: V, contentType: TAR }, 400, /the archive is truncated/);
    });
    it('a truncated gzip', () => {
      const whole = tgz(good());
      return refused('truncated tar.gz', { bytes: whole.subarray(0, Math.floor(whole.length / 2)), version: V }, 400, /the archive is truncated/);
    });
    it('an upload that breaks off', () => {
      const whole = tgz(good());
      // Broken off once the upload reads it (a timer from here could fire before, on a busy machine).
      let reading = false;
      const body: Readable = new Readable({
        read() {
          if (reading) return;
          reading = true;
          setTimeout(() => body.destroy(new Error('aborted')), 50);
        },
      });
      body.push(whole.subarray(0, Math.floor(whole.length / 2)));
      return refused('the connection breaks off mid-upload', { bytes: whole, body, version: V }, 400, /the upload broke off \(aborted\)/);
    });
    it('garbage bytes as a tar', () =>
      refused('garbage bytes (as application/x-tar)', { bytes: Buffer.from(Array.from({ length: 4096 }, (_, n) => (n * 7919) % 251)), version: V, contentType: TAR }, 400, /is not a tar archive/));
    it('garbage bytes as a gzip', () => refused('garbage bytes (as application/gzip)', { bytes: Buffer.from('this is not gzip at all, nor a tar'), version: V }, 400, /not gzip data/));
    it('a tar.gz sent as a plain tar', () => refused('a tar.gz sent as application/x-tar', { bytes: tgz(good()), version: V, contentType: TAR }, 400, /is gzip-compressed, not a tar archive: send a tar\.gz as application\/gzip/));
    it('the same version with other bytes', () => {
      const build = buildAs('1.0.0');
      writeFileSync(join(build, 'extra.txt'), 'one more file');
      return refused('same version, other bytes (1.0.0 again)', { bytes: tgz(entriesOf(build)), version: '1.0.0' }, 409, /remote-title 1\.0\.0 is already published with other files \(extra\.txt differs\); versions are immutable/);
    });
    it('a manifest naming another remote', () => {
      const build = buildAs(V);
      editManifest(build, (manifest) => (manifest.name = 'remote_search'));
      return refused('manifest naming another remote', { bytes: tgz(entriesOf(build)), version: V }, 422, /holds remote_search, not remote-title/);
    });
    it('a manifest naming another version', () =>
      refused('manifest naming another version (built 2.0.0, sent as 2.0.1)', { bytes: tgz(good()), version: '2.0.1' }, 422, /was built as version 2\.0\.0, not 2\.0\.1/));
    it('a build wrapped in dist/', () => refused('the build inside a dist/ folder', { bytes: tgz(entriesOf(buildAs(V), 'dist/')), version: V }, 422, /no mf-manifest\.json.*holds a dist\/ folder/));
    it('an empty archive', () => refused('empty archive (end blocks only)', { bytes: tgz([]), version: V }, 400, /holds no files/));
    it('an empty body', () => refused('empty body (0 bytes)', { bytes: Buffer.alloc(0), version: V, contentType: TAR }, 400, /holds no files/));
    it('an unknown remote', () => refused('unknown remote', { bytes: tgz(good()), version: V, remote: 'remote-nope' }, 400, /Unknown remote "remote-nope"/));
    it('a version that is no version', () => refused('a version that is a path (../1.0.0)', { bytes: tgz(good()), version: '../1.0.0' }, 400, /is not a version/));
  });

  it('gives up on a server build that never finishes loading', async () => {
    const dir = mkdtempSync(join(work, 'hang-'));
    mkdirSync(join(dir, 'server'));
    writeFileSync(join(dir, 'server', 'remoteEntry.js'), 'for (;;) {}\n');
    await assert.rejects(checkServerBuild(dir, REMOTE, '2.0.0', settingsFrom({}), 1000), (error: unknown) => {
      table.push({ kind: 'server build that never loads (1 s timeout)', status: (error as UploadRefused).status, message: (error as Error).message });
      return error instanceof UploadRefused && /did not load the release within 1 s/.test(error.message);
    });
  });
});

describe('npm run release -- <remote> --from <dir> (the same check of .br/.gz copies)', () => {
  /** `npm run release` as a release owner runs it, against a deploy tree of its own and the test's database. */
  function release(build: string, version: string, origin: string) {
    const { host, port, user, database } = db.config;
    const url = `postgresql://${user ?? ''}@/${database ?? ''}?host=${encodeURIComponent(host ?? '')}&port=${port ?? ''}`;
    const env: NodeJS.ProcessEnv = { ...process.env, NETNET_DEPLOY_DIR: origin, DATABASE_URL: url };
    delete env.NETNET_ENV;
    const runner = join(root, 'control-plane', 'bin', 'run.mjs');
    const result = spawnSync(process.execPath, [runner, 'release', REMOTE, '--version', version, '--from', build], { cwd: root, env, encoding: 'utf8' });
    return { code: result.status, out: result.stdout, err: result.stderr };
  }

  it('refuses a build whose .br no longer matches its file, naming it, and publishes nothing', () => {
    const origin = mkdtempSync(join(work, 'origin-'));
    const build = buildAs('3.0.0');
    writeFileSync(join(build, 'remoteEntry.js'), `${readFileSync(join(build, 'remoteEntry.js'), 'utf8')}\n/* changed after compression */\n`);
    const result = release(build, '3.0.0', origin);
    assert.equal(result.code, 1, result.out);
    assert.match(result.err, /^error: .*: remoteEntry\.js\.(br|gz) is stale: .* the file changed after it was compressed/m);
    assert.deepEqual(readdirSync(origin).filter((name) => !name.startsWith('.')), [REMOTE]);
    assert.deepEqual(readdirSync(join(origin, REMOTE)), []);
  });

  it('publishes the same build once its copies match', async () => {
    const origin = mkdtempSync(join(work, 'origin-'));
    const result = release(buildAs('3.0.0'), '3.0.0', origin);
    assert.equal(result.code, 0, result.err);
    assert.ok(existsSync(join(origin, REMOTE, '3.0.0', 'integrity.json')));
    const { rows } = await db.pool.query("SELECT version FROM releases WHERE version = '3.0.0'");
    assert.equal(rows.length, 1);
  });
});
