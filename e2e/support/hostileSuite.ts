import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from './test';
import { apiCall as api } from './controlPlaneApi';
import { auditSince, forgetReleases, forgetToken, mapVersion, storeDigest } from './controlPlane';
import { hostileBuilds, readReports, tcpListener, writeHostileBuild } from './hostileBuilds';
import site from '@netnet/site';

// The hostile-release suite's steps, shared by the spec through `npm start` and the one through
// the cluster: a team's pipeline (a token scoped to remote-title in one environment) publishes
// each hostile build through the control-plane API and makes it the canary for every member; the
// site's pages are then asked for as members and visitors would, and what each build got, as it
// says in the HTML it rendered, is checked against exactly what it must have got (docs/sandbox.md).

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);
const REMOTE = 'remote-title';
const { deployDir, deployUrl: deployOrigin } = site.readSite();
const MEMBER = 'Cookie: netnet-device=hostile-device; netnet-member=hostile-member';
/** A page must answer within this even while its area's release is stuck (budget + deadline + a busy machine). */
export const PAGE_BUDGET_MS = 3_000;

export interface Outcome {
  build: string;
  published: number;
  reported: string;
  titlePage: string;
  slowestMs: number;
  /** The slowest of the other areas' pages asked meanwhile (the bound holds for them too). */
  othersSlowestMs?: number;
}

/** The render processes running on this machine (bubblewrap's and Node's, outside their namespaces). */
function renderProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('renderWorker.js')) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};


async function archive(staging: string, copy: string, version: string): Promise<Buffer> {
  const file = join(staging, `${version}.tgz`);
  await execute('tar', ['-C', copy, '-czf', file, '.']);
  return readFileSync(file);
}

interface Page {
  status: number;
  ms: number;
  html: string;
  state: { chosen?: Record<string, { version: string; channel: string; fellBackFrom?: { version: string } }> } | null;
}

async function page(site: string, path: string, member: boolean): Promise<Page> {
  const started = performance.now();
  const response = await fetch(`${site}${path}`, { headers: member ? { Cookie: MEMBER.slice('Cookie: '.length) } : { Cookie: 'netnet-device=hostile-visitor' } });
  const html = await response.text();
  const ms = performance.now() - started;
  const json = /<script type="application\/json" id="netnet-state">(.*?)<\/script>/s.exec(html)?.[1];
  return { status: response.status, ms, html, state: json ? (JSON.parse(json) as Page['state']) : null };
}

/** How the title page's area was rendered: by the canary, by stable in its place, or in the browser. */
function howRendered(title: Page, canary: string, stable: string): string {
  const chosen = title.state?.chosen?.[REMOTE];
  if (!chosen) return 'left to the browser';
  if (chosen.version === canary) return 'rendered by the hostile canary';
  // Counted against the canary when the server saw it fail by its own fault; not yet when it was
  // starting again or had failed only once (a busy machine may have caused that).
  if (chosen.fellBackFrom) return 'stable in its place (the canary fell back, counted)';
  return chosen.version === stable ? 'stable in its place (the canary not ready)' : `rendered by ${chosen.version}`;
}

export interface SuiteOptions {
  environment: string;
  site: string;
  run: string;
  waitServed(version: string | null): Promise<void>;
  /** The shell server's log lines while `during` runs (a spec's own shell): how a build that stops its process is seen. */
  logged(during: (sofar: readonly string[]) => Promise<void>): Promise<string[]>;
  /** Processes outside the sandbox the builds aim signals at besides the render processes (the servers). */
  serverPids: number[];
}

export async function runHostileSuite({ environment, site, run, waitServed, logged, serverPids }: SuiteOptions): Promise<Outcome[]> {
  const listener = await tcpListener();
  const staging = mkdtempSync(join(tmpdir(), 'netnet-hostile-'));
  const tokenName = `hostile-title-${run}`;
  const { stdout } = await execute('npm', ['run', '--silent', 'tokens', '--', 'create', tokenName, '--remotes', REMOTE, '--environments', environment, '--actions', 'publish,stable,canary,rollback,status'], { cwd: root });
  const token = stdout.trim();
  const env = `/v1/environments/${environment}`;
  const outcomes: Outcome[] = [];
  const versions: string[] = [];
  try {
    // A clean stable of the team's own first: a canary falls back to it.
    const stable = `9.0.0-hostile.${run}`;
    versions.push(stable);
    writeHostileBuild({ name: 'clean' }, { version: stable, copy: join(staging, stable) });
    expect((await api(token, 'POST', `/v1/remotes/${REMOTE}/releases/${stable}`, { archive: await archive(staging, join(staging, stable), stable) })).status).toBe(201);
    expect((await api(token, 'PUT', `${env}/remotes/${REMOTE}/stable`, { json: { version: stable } })).status).toBe(200);

    // The stable's render processes (the other areas' too) are up: the builds aim at them.
    await expect.poll(async () => (await page(site, '/title/604', true)).state?.chosen?.[REMOTE]?.version, { timeout: 60_000 }).toBe(stable);
    const pids = [...serverPids, ...renderProcesses()];
    const builds = hostileBuilds({ run, sitePort: Number(new URL(site).port || 80), listenerPort: listener.port, pids, publicPathOf: (version) => `${deployOrigin}/${REMOTE}/${version}/` });
    let index = 0;
    for (const build of builds) {
      index += 1;
      const version = `9.1.${index}-hostile.${run}`;
      versions.push(version);
      const copy = join(staging, version);
      writeHostileBuild(build, { version, copy });
      const published = await api(token, 'POST', `/v1/remotes/${REMOTE}/releases/${version}`, { archive: await archive(staging, copy, version) });
      expect(published.status, `${build.name}: published ${String(published.body.error ?? '')}`).toBe(build.published);
      if (build.published === 422) {
        // Refused at the door: the upload's check ran it in a render process, as members' renders would.
        expect(String(published.body.error), `${build.name}: refused for what it did`).toMatch(build.refusal!);
        outcomes.push({ build: build.name, published: published.status, reported: String(published.body.error ?? ''), titlePage: 'never rolled out', slowestMs: 0 });
        continue;
      }
      expect((await api(token, 'PUT', `${env}/remotes/${REMOTE}/canary`, { json: { version, percent: 100 } })).status).toBe(200);
      await waitServed(version);
      // Its render processes have started and warmed up: the title page is its render.
      await expect.poll(async () => howRendered(await page(site, '/title/604', true), version, stable), { timeout: 60_000 }).toBe('rendered by the hostile canary');
      const before = await storeDigest();
      const mapBefore = await mapVersion(environment);

      const pages: Page[] = [];
      const lines = await logged(async (sofar) => {
        for (let round = 0; round < 8; round += 1) pages.push(await page(site, '/title/604', true));
        // A build that stops its process is seen when the server ends it (a loop: 5 s past the
        // render's budget): members keep asking until then, as they would.
        const stopped = () => build.stops!.test(sofar.filter((line) => line.includes(version)).join('\n'));
        for (const until = Date.now() + 30_000; build.stops && !stopped() && Date.now() < until; ) pages.push(await page(site, '/title/604', true));
      });
      // The other areas, each asked up to five times: a render a busy machine made late falls back
      // like any other, but the area must render on the server with its own release.
      const others: Page[] = [];
      for (const [path, member, remote] of [['/browse', true, 'remote-browse'], ['/', false, 'remote-auth'], ['/search?q=the', true, 'remote-search']] as const) {
        let answer = await page(site, path, member);
        for (let retry = 0; retry < 4 && !answer.state?.chosen?.[remote]; retry += 1) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          answer = await page(site, path, member);
        }
        others.push(answer);
      }
      for (const answer of [...pages, ...others]) {
        expect(answer.status, `${build.name}: every page answers`).toBe(200);
        expect(answer.ms, `${build.name}: every page answers within ${PAGE_BUDGET_MS} ms`).toBeLessThan(PAGE_BUDGET_MS);
        expect(answer.html, `${build.name}: nothing it patched shows on any page`).not.toMatch(/HOSTILE-/);
      }
      // The other areas render on the server with their own releases, whatever this one does.
      expect(others[0]!.state?.chosen?.['remote-browse'], `${build.name}: /browse rendered on the server`).toBeTruthy();
      expect(others[1]!.state?.chosen?.['remote-auth'], `${build.name}: / rendered on the server`).toBeTruthy();
      expect(others[2]!.state?.chosen?.['remote-search'], `${build.name}: /search rendered on the server`).toBeTruthy();

      // The hostile code ran, and got exactly what it must have: a build whose render returns says
      // so in the page, under its own name; one that ends or stalls its process is seen by the
      // server, which says why, and its area falls back.
      const reported = pages.flatMap((answer) => readReports(answer.html));
      expect([...new Set(reported.map((found) => found.build))], `${build.name}: only its own reports`).toEqual(build.reports ? [build.name] : []);
      const merged = Object.assign({}, ...reported.flatMap((found) => found.reports)) as Record<string, unknown>;
      if (build.reports) expect(merged, `${build.name}: what it got`).toEqual(JSON.parse(JSON.stringify(build.reports).replaceAll('__VERSION__', version)));
      if (build.stops) {
        expect(lines.filter((line) => line.includes(version)).join('\n'), `${build.name}: the server saw it stop`).toMatch(build.stops);
        expect(howRendered(pages.at(-1)!, version, stable), `${build.name}: its area falls back`).toMatch(/^stable in its place/);
      }
      expect(listener.connections(), `${build.name}: no connection reached the listener`).toBe(0);
      for (const pid of pids.filter((pid) => serverPids.includes(pid))) expect(alive(pid), `${build.name}: server ${pid} alive`).toBe(true);
      expect(existsSync(`/tmp/netnet-hostile-${run}.txt`), `${build.name}: wrote no file`).toBe(false);

      // The store as before: no map, release, token or audit row changed by any render (the guard's own rollback aside).
      const after = await storeDigest();
      const byOthers = (await auditSince(environment, mapBefore)).filter((entry) => !entry.actor.startsWith('guard@'));
      expect(byOthers, `${build.name}: nothing but the guard changed the map`).toEqual([]);
      expect({ releases: after.releases, api_tokens: after.api_tokens }, `${build.name}: releases and tokens unchanged`).toEqual({ releases: before.releases, api_tokens: before.api_tokens });
      if ((await mapVersion(environment)) === mapBefore) expect(after, `${build.name}: the store unchanged`).toEqual(before);

      outcomes.push({
        build: build.name,
        published: published.status,
        reported: build.reports ? JSON.stringify(merged).slice(0, 400) : `stopped: ${lines.find((line) => line.includes(version) && build.stops!.test(line))?.slice(0, 200) ?? '—'}`,
        titlePage: [...new Set(pages.map((answer) => howRendered(answer, version, stable)))].join('; '),
        slowestMs: Math.round(Math.max(...pages.map((answer) => answer.ms))),
        othersSlowestMs: Math.round(Math.max(...others.map((answer) => answer.ms))),
      });
      // Back to stable for the next build (if the guard has not done it already).
      await api(token, 'POST', `${env}/remotes/${REMOTE}/rollback`);
      await waitServed(null);
    }
  } finally {
    await listener.close();
    rmSync(staging, { recursive: true, force: true });
    for (const version of versions) rmSync(join(deployDir, REMOTE, version), { recursive: true, force: true });
    await forgetReleases(REMOTE, versions);
    await forgetToken(tokenName);
  }
  console.log(`\nhostile remote-title releases through ${site}:\n${outcomes.map((o) => `- ${o.build}: publish ${o.published}; title page: ${o.titlePage} (slowest ${o.slowestMs} ms${o.othersSlowestMs === undefined ? '' : `; the other areas' pages ${o.othersSlowestMs} ms`}); it got: ${o.reported}`).join('\n')}\n`);
  return outcomes;
}
