// The release console's door (./console/): a person's one-time sign-in link traded for a session
// cookie (HttpOnly, SameSite=Strict, expiring), the session speaking for its token's scope on the
// API's own calls (403 outside it, nothing changed), CSRF (a change needs the session's token and
// the console's own origin), the plan the person saw (409 when someone changed it first), and the
// session ending with the token. Over a real PostgreSQL (store/testDatabase.ts).
// Run: node --import tsx --test control-plane/src/api/console.test.ts
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, beforeEach, describe, it } from 'node:test';
import { publishUpload } from '../releases/upload.ts';
import site from '@netnet/site';
import { registerRelease } from '../store/releases.ts';
import { readRollout, updateRollout } from '../store/rollouts.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';
import { createSignInLink } from './console/sessions.ts';
import { createApi } from './server.ts';
import { createToken, revokeToken } from './tokens.ts';

let db: TestDatabase;
let server: FastifyInstance;
let base: string;

before(async () => {
  db = await testDatabase();
  server = await createApi({ database: db, publish: publishUpload, env: { ...process.env, NETNET_DEPLOY_DIR: db.dir, HOST: '127.0.0.1' } });
  base = await server.listen({ port: 0, host: '127.0.0.1' });
  for (const remote of site.remotes) for (const version of ['1.0.0', '1.1.0']) await registerRelease(db.pool, remote, version, null);
});
after(async () => {
  server.server.closeAllConnections();
  await server.close();
  await db.close();
});

let people = 0;
/** A person's token scoped like the title-owner, and a fresh sign-in link for it. */
async function titleOwner(): Promise<{ name: string; secret: string }> {
  people += 1;
  const name = `title-owner-${people}`;
  await createToken(db.pool, name, { remotes: ['remote-title'], environments: ['production'], actions: ['canary', 'promote', 'rollback', 'status'] }, 'test', { person: true });
  const link = await createSignInLink(db.pool, name, `${base}/console/`);
  const secret = /#sign-in=([A-Za-z0-9_-]{43})$/.exec(link)?.[1];
  assert.ok(secret, `a link with its secret in the fragment: ${link}`);
  return { name, secret };
}

async function send(method: string, path: string, { json, headers = {} }: { json?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: json === undefined ? undefined : JSON.stringify(json),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text.startsWith('{') ? JSON.parse(text) : { text }) as Record<string, any> };
}

/** Signs in with a link: the cookie to send back and the session's CSRF token. */
async function signIn(secret: string) {
  const answer = await send('POST', '/console/api/session', { json: { link: secret }, headers: { Origin: base } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const cookie = answer.headers.get('set-cookie') ?? '';
  return { cookie: cookie.split(';')[0] ?? '', setCookie: cookie, csrf: String(answer.body.csrf), body: answer.body };
}

const canaryOf = async (remote: string) => (await readRollout(db.pool, 'production')).rollout?.remotes[remote]?.canary;

beforeEach(async () => {
  await updateRollout(db.pool, 'production', () => ({ remotes: Object.fromEntries(site.remotes.map((remote) => [remote, { stable: '1.0.0', canary: { version: '1.1.0', percent: 5 } }])) }), {
    actor: 'test',
    action: 'reset',
  });
});

describe('the sign-in link', () => {
  it('is traded once for an HttpOnly, SameSite=Strict, expiring session cookie', async () => {
    const { secret, name } = await titleOwner();
    const { setCookie, body } = await signIn(secret);
    assert.match(setCookie, /^netnet-console=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Max-Age=28800', 'Path=/']) assert.ok(setCookie.split('; ').includes(attribute), `${attribute} in ${setCookie}`);
    assert.equal(body.person, name);
    assert.equal(body.actor, `person:${name}`);
    const again = await send('POST', '/console/api/session', { json: { link: secret }, headers: { Origin: base } });
    assert.equal(again.status, 401);
    assert.match(String(again.body.error), /used already or expired/);
  });

  it('is refused when expired, malformed, or its token revoked', async () => {
    const expired = await titleOwner();
    await db.pool.query("UPDATE console_links SET expires_at = now() - interval '1 second' WHERE token = $1", [expired.name]);
    assert.equal((await send('POST', '/console/api/session', { json: { link: expired.secret } })).status, 401);
    assert.equal((await send('POST', '/console/api/session', { json: { link: 'not-a-secret' } })).status, 401);
    const revoked = await titleOwner();
    await revokeToken(db.pool, revoked.name);
    assert.equal((await send('POST', '/console/api/session', { json: { link: revoked.secret } })).status, 401);
  });

  it('is made for a person\'s token only, and signing in from another origin is refused', async () => {
    await createToken(db.pool, 'a-pipeline', { remotes: ['*'], environments: ['*'], actions: ['*'] }, 'test');
    await assert.rejects(createSignInLink(db.pool, 'a-pipeline', `${base}/console/`), /not a person's/);
    const { secret } = await titleOwner();
    const elsewhere = await send('POST', '/console/api/session', { json: { link: secret }, headers: { Origin: 'http://evil.example' } });
    assert.equal(elsewhere.status, 403);
    // The refused attempt did not use the link up.
    await signIn(secret);
  });
});

describe('a session', () => {
  it('answers who it is, and nothing without the cookie', async () => {
    const { secret, name } = await titleOwner();
    const { cookie } = await signIn(secret);
    const me = await send('GET', '/console/api/session', { headers: { Cookie: cookie } });
    assert.equal(me.status, 200);
    assert.equal(me.body.person, name);
    assert.deepEqual(me.body.scope.remotes, ['remote-title']);
    assert.equal((await send('GET', '/console/api/session')).status, 401);
    assert.equal((await send('GET', '/console/api/environments/production/overview')).status, 401);
  });

  it('shows every remote, with the actions outside its scope refused and why', async () => {
    const { secret, name } = await titleOwner();
    const { cookie } = await signIn(secret);
    const overview = await send('GET', '/console/api/environments/production/overview', { headers: { Cookie: cookie } });
    assert.equal(overview.status, 200);
    const byRemote = Object.fromEntries(overview.body.remotes.map((summary: { remote: string; can: Record<string, string | null> }) => [summary.remote, summary.can]));
    assert.deepEqual(Object.keys(byRemote).sort(), [...site.remotes].sort());
    assert.deepEqual(byRemote['remote-title'], { canary: null, promote: null, rollback: null });
    assert.equal(byRemote['remote-search'].canary, `${name} covers remote-title only.`);
    assert.match(String(overview.body.canChangePins), /may not pin/);
    // An environment outside its scope is not shown at all.
    assert.equal((await send('GET', '/console/api/environments/staging/overview', { headers: { Cookie: cookie } })).status, 403);
  });

  it('changes what its scope covers, audited under the person\'s name', async () => {
    const { secret, name } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    const answer = await send('PUT', '/v1/environments/production/remotes/remote-title/canary', {
      json: { version: '1.1.0', percent: 20, skipCompatibilityGate: true },
      headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf, Origin: base },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(await canaryOf('remote-title'), { version: '1.1.0', percent: 20 });
    const { rows } = await db.pool.query('SELECT actor, action FROM audit ORDER BY id DESC LIMIT 1');
    assert.deepEqual(rows[0], { actor: `person:${name}`, action: 'canary' });
  });

  it('keeps the reason given for a change in the audit trail, which the console shows', async () => {
    const { secret } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    const headers = { Cookie: cookie, 'X-Netnet-CSRF': csrf };
    const path = '/v1/environments/production/remotes/remote-title/canary';
    assert.equal((await send('PUT', path, { json: { version: '1.1.0', percent: 15, skipCompatibilityGate: true }, headers })).status, 200);
    const answer = await send('PUT', path, { json: { version: '1.1.0', percent: 20, skipCompatibilityGate: true, reason: '  error rate flat for an hour ' }, headers });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    // The whole trail as well as one remote's says why, and what the remote served before.
    for (const query of ['', '?remote=remote-title']) {
      const trail = await send('GET', `/console/api/environments/production/audit${query}`, { headers: { Cookie: cookie } });
      assert.equal(trail.status, 200);
      const [entry] = trail.body.entries;
      assert.deepEqual(
        { action: entry.action, reason: entry.reason, before: entry.before, plan: entry.plan },
        { action: 'canary', reason: 'error rate flat for an hour', before: { stable: '1.0.0', canary: { version: '1.1.0', percent: 15 } }, plan: { stable: '1.0.0', canary: { version: '1.1.0', percent: 20 } } },
        query,
      );
    }
    // A reason that says nothing, is too long or is not text: 400, nothing changed.
    for (const reason of ['   ', 'x'.repeat(501), 42]) {
      const refused = await send('PUT', path, { json: { version: '1.1.0', percent: 30, skipCompatibilityGate: true, reason }, headers });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.match(String(refused.body.error), /reason/);
    }
    assert.deepEqual(await canaryOf('remote-title'), { version: '1.1.0', percent: 20 });
  });

  it("previews a promote with the guard's verdict: inconclusive while the canary has no sessions", async () => {
    const { secret } = await titleOwner();
    const { cookie } = await signIn(secret);
    const previewed = await send('GET', '/console/api/environments/production/remotes/remote-title/preview?command=promote', { headers: { Cookie: cookie } });
    assert.equal(previewed.status, 200, JSON.stringify(previewed.body));
    assert.equal(previewed.body.verdict.conclusion, 'inconclusive');
    assert.match(previewed.body.verdict.reason, /too few canary sessions yet \(0\)/);
    assert.equal(previewed.body.verdict.evidence.canary.sessions, 0);
  });

  it('is refused (403, nothing changed) a forged change outside its scope', async () => {
    const { secret } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    const forged = await send('PUT', '/v1/environments/production/remotes/remote-search/canary', {
      json: { version: '1.1.0', percent: 50, skipCompatibilityGate: true },
      headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf },
    });
    assert.equal(forged.status, 403);
    assert.match(String(forged.body.error), /may not canary remote-search/);
    assert.deepEqual(await canaryOf('remote-search'), { version: '1.1.0', percent: 5 });
    const pins = await send('PUT', '/v1/environments/production/pin-policy', { json: { pinRolledBack: true }, headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf } });
    assert.equal(pins.status, 403);
  });

  it('changes nothing without its CSRF token or from another origin', async () => {
    const { secret } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    const change = { version: '1.1.0', percent: 30, skipCompatibilityGate: true };
    const path = '/v1/environments/production/remotes/remote-title/canary';
    const none = await send('PUT', path, { json: change, headers: { Cookie: cookie } });
    assert.equal(none.status, 403);
    assert.match(String(none.body.error), /CSRF/);
    const wrong = await send('PUT', path, { json: change, headers: { Cookie: cookie, 'X-Netnet-CSRF': `${csrf.slice(1)}x` } });
    assert.equal(wrong.status, 403);
    const crossSite = await send('PUT', path, { json: change, headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf, Origin: 'http://evil.example' } });
    assert.equal(crossSite.status, 403);
    assert.deepEqual(await canaryOf('remote-title'), { version: '1.1.0', percent: 5 });
  });

  it('gets 409 and the state now when someone changed the remote after its page showed it', async () => {
    const { secret } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    const seen = { stable: '1.0.0', canary: { version: '1.1.0', percent: 5 } };
    await updateRollout(db.pool, 'production', (map) => ({ ...map!, remotes: { ...map!.remotes, 'remote-title': { stable: '1.0.0', canary: { version: '1.1.0', percent: 30 } } } }), {
      actor: 'someone@cli',
      action: 'canary',
      remote: 'remote-title',
    });
    const late = await send('PUT', '/v1/environments/production/remotes/remote-title/canary', {
      json: { version: '1.1.0', percent: 20, skipCompatibilityGate: true, expected: seen },
      headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf },
    });
    assert.equal(late.status, 409);
    assert.match(String(late.body.error), /changed by someone else first \(now stable 1\.0\.0, canary 1\.1\.0 at 30%\)/);
    assert.deepEqual(await canaryOf('remote-title'), { version: '1.1.0', percent: 30 });
    // The same plan in another key order (as jsonb returns it) is what the map holds: it lands.
    const current = { canary: { percent: 30, version: '1.1.0' }, stable: '1.0.0' };
    const fresh = await send('PUT', '/v1/environments/production/remotes/remote-title/canary', {
      json: { version: '1.1.0', percent: 20, skipCompatibilityGate: true, expected: current },
      headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf },
    });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
  });

  it('ends with its token: revoked, the next call is refused', async () => {
    const { secret, name } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    await revokeToken(db.pool, name);
    assert.equal((await send('GET', '/console/api/session', { headers: { Cookie: cookie } })).status, 401);
    const change = await send('POST', '/v1/environments/production/remotes/remote-title/rollback', { json: {}, headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf } });
    assert.equal(change.status, 401);
    assert.deepEqual(await canaryOf('remote-title'), { version: '1.1.0', percent: 5 });
  });

  it('ends when its person signs out', async () => {
    const { secret } = await titleOwner();
    const { cookie, csrf } = await signIn(secret);
    const out = await send('DELETE', '/console/api/session', { headers: { Cookie: cookie, 'X-Netnet-CSRF': csrf } });
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    assert.equal((await send('GET', '/console/api/session', { headers: { Cookie: cookie } })).status, 401);
  });
});

describe('the console page', () => {
  it('may not be framed and allows only its own scripts', async () => {
    const answer = await send('GET', '/console');
    assert.equal(answer.status, 308);
    assert.equal(answer.headers.get('location'), '/console/');
    const policy = answer.headers.get('content-security-policy') ?? '';
    assert.match(policy, /frame-ancestors 'none'/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    assert.equal(answer.headers.get('x-frame-options'), 'DENY');
    // Nothing outside the console's build is served from its path.
    for (const path of ['/console/%2e%2e/package.json', '/console/..%2f..%2fpackage.json', '/console/.built', '/console/server/firstView.cjs']) assert.notEqual((await send('GET', path)).status, 200, path);
  });

  // Needs the console's build (node scripts/build.mjs), as `npm run test:unit` makes it first.
  it('comes with a signed-in person\'s first view drawn, its figures in a data block no policy runs', async () => {
    const { secret, name } = await titleOwner();
    const { cookie } = await signIn(secret);
    const page = await send('GET', '/console/', { headers: { Cookie: cookie, 'Accept-Encoding': 'br' } });
    assert.equal(page.status, 200, 'the console is built (node scripts/build.mjs)');
    assert.equal(page.headers.get('content-encoding'), 'br');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    // Its style sheet and script are asked for as the headers come.
    assert.match(page.headers.get('link') ?? '', /^<\/console\/console\.[0-9a-f]+\.css>; rel=preload; as=style, <\/console\/console\.[0-9a-f]+\.js>; rel=preload; as=script$/);
    const html = String(page.body.text);
    // Every script is a file of the console's own or data: nothing inline runs.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\bsrc="?\/console\/[\w.-]+\.js"?[\s>]|type="application\/json"/, tag);
    const block = /<script type="application\/json" id="console-boot">([^<]*)<\/script>/.exec(html)?.[1];
    assert.ok(block, 'the boot block');
    const boot = JSON.parse(block);
    assert.equal(boot.session.person, name);
    assert.equal(boot.first.environment, 'production');
    assert.deepEqual(boot.first.overview.remotes.map((summary: { remote: string }) => summary.remote).sort(), [...site.remotes].sort());
    const root = /<div id="root">([\s\S]*)<\/div>\s*<script type="application\/json"/.exec(html)?.[1] ?? '';
    assert.match(root, /<h2>Every remote in <!-- -->production<\/h2>/);
    assert.match(root, new RegExp(`Signed in as <!-- -->${name}`));
    assert.match(root, /<dd>1\.1\.0 at 5 %<\/dd>/);
    assert.match(html, /<title>Remotes · production · Netnet release console<\/title>/);
  });

  it('comes without a session or a view to a browser not signed in', async () => {
    const page = await send('GET', '/console/');
    assert.equal(page.status, 200);
    const html = String(page.body.text);
    const block = /<script type="application\/json" id="console-boot">([^<]*)<\/script>/.exec(html)?.[1];
    assert.deepEqual(JSON.parse(block ?? 'null'), { session: null, first: null });
    assert.match(html, /<div id="?root"?><\/div>/);
  });
});
