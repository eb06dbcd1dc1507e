import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from '../support/test';
import { allReady, clusterState, instanceOrigins, metricsOf, putBack, remotesJsonOf, servedNow, sumOf } from '../support/cluster';
import { clusterEnvironment } from '../support/clusterEnvironment';
import { apiCall } from '../support/controlPlaneApi';
import { auditSince, forgetReleases, forgetToken, mapVersion } from '../support/controlPlane';
import { writeHostileBuild } from '../support/hostileBuilds';
import { getFrom } from '../support/loopbackClients.mjs';
import { siteUrl } from '../support/site';
import site from '@netnet/site';

// Hostile canaries through the front door (nginx in front of two shell instances, the guard a
// process beside them, docs/deploy.md), under steady load, each at 5 %: one whose render writes
// garbage into its channel (at 1 % that once crashed every instance reading it), one that calls
// process.exit and one that loops. Every request answers, no instance restarts (nginx's retry on the other
// instance spreads nothing), and the guard rolls each canary back by itself from the failures the
// servers counted (docs/sandbox.md). The whole hostile suite runs once, through `npm start`
// (e2e/specs/hostile-releases.spec.ts).

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);
const run = Date.now().toString(36);

const canaryEverywhere = async () => (await Promise.all(instanceOrigins().map(remotesJsonOf))).map((map) => map.remotes['remote-title']?.canary?.version ?? null);

// At 5 %, five times the garbage of the 1 % that once took the site down, and the guard has its
// sessions in a fifth of the time (what it judges is the same).
const CANARIES = [
  { name: 'writes garbage into every descriptor at render', percent: 5, onRender: "for (var fd = 0; fd < 64; fd += 1) { try { require('fs').writeSync(fd, 'x\\n'); } catch (e) {} }" },
  { name: 'calls process.exit', percent: 5, onRender: 'process.exit(7);' },
  { name: 'loops forever in render', percent: 5, onRender: 'for (;;) {}' },
];

for (const [index, hostile] of CANARIES.entries()) {
  test(`a ${hostile.percent} % canary that ${hostile.name}, under steady load: no failed request, no restart, rolled back by the guard`, async () => {
    test.setTimeout(300_000);
    await allReady();
    const before = await servedNow();
    const state = clusterState();
    const staging = mkdtempSync(join(tmpdir(), 'netnet-hostile-canary-'));
    const tokenName = `hostile-canary-${index}-${run}`;
    const token = (
      await execute('npm', ['run', '--silent', 'tokens', '--', 'create', tokenName, '--remotes', 'remote-title', '--environments', clusterEnvironment, '--actions', 'publish,stable,canary,rollback'], { cwd: root })
    ).stdout.trim();
    const call = async (method: string, path: string, body: { archive?: Buffer; json?: unknown }) => (await apiCall(token, method, path, body)).status;
    const publish = async (version: string, build: { name: string; onRender?: string }) => {
      const copy = join(staging, version);
      writeHostileBuild(build, { version, copy });
      await execute('tar', ['-C', copy, '-czf', `${copy}.tgz`, '.']);
      expect(await call('POST', `/v1/remotes/remote-title/releases/${version}`, { archive: readFileSync(`${copy}.tgz`) })).toBe(201);
    };
    const stable = `9.2.${index * 2}-canary.${run}`;
    const canary = `9.2.${index * 2 + 1}-canary.${run}`;
    try {
      await publish(stable, { name: 'clean' });
      await publish(canary, hostile);
      expect(await call('PUT', `/v1/environments/${clusterEnvironment}/remotes/remote-title/stable`, { json: { version: stable } })).toBe(200);
      const since = await mapVersion(clusterEnvironment);
      expect(await call('PUT', `/v1/environments/${clusterEnvironment}/remotes/remote-title/canary`, { json: { version: canary, percent: hostile.percent } })).toBe(200);
      await expect.poll(canaryEverywhere, { timeout: 10_000 }).toEqual(instanceOrigins().map(() => canary));

      // Members (a new one each request, so `percent` in 100 fall in the canary) open a title page, 40 a
      // second from 40 addresses on 8 networks, until the guard has rolled the canary back (or 150 s pass).
      const started = Date.now();
      const failures: string[] = [];
      const sent: Promise<void>[] = [];
      let rolledBackAt: number | null = null;
      for (let i = 0; rolledBackAt === null && Date.now() - started < 150_000; i += 1) {
        const due = started + i * 25 - Date.now();
        if (due > 0) await new Promise((done) => setTimeout(done, due));
        sent.push(
          getFrom(siteUrl, '/title/604', { client: i % 40, networks: 8, headers: { Cookie: `netnet-device=${randomUUID()}; netnet-member=${randomUUID()}` } }).then(
            ({ status }) => void (status !== 200 && failures.push(`HTTP ${status}`)),
            (error: Error) => void failures.push(error.message),
          ),
        );
        if (i % 40 === 0 && (await auditSince(clusterEnvironment, since)).some((entry) => entry.actor.startsWith('guard@') && entry.action === 'rollback')) rolledBackAt = Date.now();
      }
      await Promise.all(sent);
      const seconds = rolledBackAt === null ? null : (rolledBackAt - started) / 1000;
      const rollback = (await auditSince(clusterEnvironment, since)).find((entry) => entry.actor.startsWith('guard@'));
      const byKind = Object.entries(failures.reduce<Record<string, number>>((counts, failure) => ({ ...counts, [failure]: (counts[failure] ?? 0) + 1 }), {}));
      console.log(`${hostile.percent} % canary that ${hostile.name}: ${sent.length} requests from 8 networks, ${failures.length} failed ${JSON.stringify(byKind)}; guard rollback after ${seconds ?? '—'} s (${rollback?.reason ?? 'none'})`);
      // What each instance saw of the canary: its sessions counted by the servers.
      for (const origin of instanceOrigins()) {
        const samples = await metricsOf(origin);
        const of = (name: string, labels: Record<string, string>) => sumOf(samples, name, { remote: 'remote-title', release: canary, ...labels });
        console.log(`${origin}: canary sessions counted fell-back ${of('netnet_health_reports_total', { outcome: 'fell-back' })}, loaded ${of('netnet_health_reports_total', { outcome: 'loaded' })}`);
      }
      expect(failures, 'no request failed').toEqual([]);
      expect(rollback, 'the guard rolled the canary back by itself').toMatchObject({ action: 'rollback', remote: 'remote-title' });
      expect(clusterState().instances.map((instance) => instance.pid), 'no instance died or restarted').toEqual(state.instances.map((instance) => instance.pid));
      expect(clusterState().rollingRestarts).toBe(state.rollingRestarts);
    } finally {
      rmSync(staging, { recursive: true, force: true });
      for (const version of [stable, canary]) rmSync(join(site.readSite().deployDir, 'remote-title', version), { recursive: true, force: true });
      await putBack(before);
      await forgetReleases('remote-title', [stable, canary]);
      await forgetToken(tokenName);
    }
  });
}
