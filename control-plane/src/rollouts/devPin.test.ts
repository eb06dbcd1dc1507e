// Dev pins (./devPin.ts): that a valid QA token is needed, what the cookie keeps and when it goes,
// and what the map names for the pinned browser. Which origins may be pinned (loopback only) is
// the rollout package's rule, tested beside it (rollout/src/devPin/devPin.test.ts).
// Run: node --import tsx --test control-plane/src/rollouts/devPin.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOKEN_NEEDED } from '@netnet/rollout/dev-pin';
import { DEV_PIN_COOKIE, devPinSources, devPinsFor, type DevPinRequest } from './devPin.ts';
import site from '@netnet/site';
import { newQaTokenId, signQaToken } from './qaToken.ts';
import { remoteMapFor } from './remoteMap.ts';

const SECRET = 'dev-pin-secret-for-tests';
const ENVIRONMENT = 'dev-pin-test';
const REMOTES = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'];
const NOW = Date.UTC(2026, 10, 27, 3, 0, 0);
/** The map's settings as a server's config holds them, with the secret. */
const settings = { ...site.readSite({}), qaSecret: SECRET };
/** The ids of the QA tokens the store holds as standing (made with `qa()`). */
const standing = new Set<string>();
/** A token signed as the CLI signs one, standing unless `recorded: false`. */
function qa({ secret = SECRET, environment = ENVIRONMENT, hours = 8, now = NOW, recorded = true } = {}): string {
  const id = newQaTokenId();
  if (recorded) standing.add(id);
  return signQaToken({ secret, environment, id, expires: new Date(now + hours * 3600_000) });
}
const token = qa();

const pinsOf = (req: DevPinRequest, options: { now?: number; qaSecret?: string | undefined; environment?: string } = {}) =>
  devPinsFor(req, { environment: options.environment ?? ENVIRONMENT, remotes: REMOTES, qaTokens: standing, qaSecret: 'qaSecret' in options ? options.qaSecret : SECRET, now: options.now ?? NOW });

const page = (query: string, cookie?: string): DevPinRequest => ({ url: `/title/604?${query}`, headers: cookie ? { cookie } : {} });

/** The cookie's name=value from a Set-Cookie line, as the browser sends it back. */
const sentBack = (setCookie: string | null) => {
  assert.ok(setCookie, 'a cookie is set');
  return setCookie.split(';')[0]!;
};

describe('devPinsFor', () => {
  it('pins a loopback dev server with a valid token, in an HttpOnly cookie that lasts as long as the token', () => {
    const pins = pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`));
    assert.deepEqual(pins.pins, { 'remote-title': 'http://localhost:3003' });
    assert.equal(pins.token, token);
    assert.deepEqual(pins.refused, []);
    assert.match(pins.setCookie ?? '', new RegExp(`^${DEV_PIN_COOKIE}=[A-Za-z0-9_-]+; Path=/; Max-Age=28800; HttpOnly; SameSite=Lax$`));
  });

  it('keeps the pin on later requests from the cookie alone, without setting it again', () => {
    const cookie = sentBack(pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`)).setCookie);
    const later = pinsOf({ url: '/browse', headers: { cookie: `netnet-device=abc; ${cookie}` } });
    assert.deepEqual(later, { pins: { 'remote-title': 'http://localhost:3003' }, token, refused: [], setCookie: null });
  });

  it('drops a kept pin once its token is revoked (the store no longer holds it as standing)', () => {
    const revocable = qa();
    const cookie = sentBack(pinsOf(page(`qa-token=${revocable}&remote.remote-title=dev:http://localhost:3003`)).setCookie);
    assert.deepEqual(pinsOf({ url: '/browse', headers: { cookie } }).pins, { 'remote-title': 'http://localhost:3003' });
    standing.delete(revocable.split('.')[1]!);
    assert.deepEqual(pinsOf({ url: '/browse', headers: { cookie } }).pins, {});
  });

  it('refuses a dev pin without a token, with a token for another environment or secret, an expired one, or one the store does not hold as standing', () => {
    const otherEnv = qa({ environment: 'production' });
    const otherSecret = qa({ secret: 'another-secret' });
    const expired = qa({ hours: 1, now: NOW - 2 * 3600_000 });
    const unrecorded = qa({ recorded: false });
    for (const query of ['', `qa-token=${otherEnv}&`, `qa-token=${otherSecret}&`, `qa-token=${expired}&`, `qa-token=${unrecorded}&`]) {
      const pins = pinsOf(page(`${query}remote.remote-title=dev:http://localhost:3003`));
      assert.deepEqual(pins, { pins: {}, token: null, refused: [{ remote: 'remote-title', value: 'dev:http://localhost:3003', reason: TOKEN_NEEDED }], setCookie: null }, query);
    }
  });

  it("takes a new pin only with a token beside it: not with the one a pinned browser's cookie holds", () => {
    const cookie = sentBack(pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`)).setCookie);
    const relinked = pinsOf(page('remote.remote-title=dev:http://localhost:6666', cookie));
    assert.deepEqual(relinked.pins, { 'remote-title': 'http://localhost:3003' });
    assert.deepEqual(relinked.refused, [{ remote: 'remote-title', value: 'dev:http://localhost:6666', reason: TOKEN_NEEDED }]);
    assert.equal(relinked.setCookie, null);
    const withToken = pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:6666`, cookie));
    assert.deepEqual(withToken.pins, { 'remote-title': 'http://localhost:6666' });
  });

  it('has no dev pins at all on a server without NETNET_QA_SECRET', () => {
    const pins = pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`), { qaSecret: undefined });
    assert.deepEqual(pins.pins, {});
    assert.equal(pins.refused[0]?.reason, TOKEN_NEEDED);
  });

  it('refuses a non-loopback origin even with a valid token, and says why', () => {
    const pins = pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://evil.example:3003`));
    assert.deepEqual(pins.pins, {});
    assert.equal(pins.setCookie, null);
    assert.equal(pins.refused.length, 1);
    assert.match(pins.refused[0]!.reason, /^http:\/\/evil\.example:3003 is refused: only a dev server on this machine can be pinned/);
  });

  it('ignores unknown remotes', () => {
    const pins = pinsOf(page(`qa-token=${token}&remote.remote-nope=dev:http://localhost:3003`));
    assert.deepEqual(pins, { pins: {}, token, refused: [], setCookie: null });
  });

  it('drops the pin, and the cookie, once its token has expired', () => {
    const cookie = sentBack(pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`)).setCookie);
    const later = pinsOf({ url: '/browse', headers: { cookie } }, { now: NOW + 9 * 3600_000 });
    assert.deepEqual(later.pins, {});
    assert.equal(later.setCookie, `${DEV_PIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  });

  it('unpins with remote.<name>=clear or a version pin beside the token, keeping the other remotes', () => {
    const both = pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003&remote.remote-search=dev:http://127.0.0.1:3014`));
    assert.deepEqual(both.pins, { 'remote-title': 'http://localhost:3003', 'remote-search': 'http://127.0.0.1:3014' });
    const cookie = sentBack(both.setCookie);
    const cleared = pinsOf(page(`qa-token=${token}&remote.remote-title=clear`, cookie));
    assert.deepEqual(cleared.pins, { 'remote-search': 'http://127.0.0.1:3014' });
    const versioned = pinsOf(page(`qa-token=${token}&remote.remote-search=1.4.0`, sentBack(cleared.setCookie)));
    assert.deepEqual(versioned.pins, {});
    assert.equal(versioned.setCookie, `${DEV_PIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  });

  it('unpins with clear or a version without a token (its page cannot send the HttpOnly one), and re-pins only with one', () => {
    const cookie = sentBack(pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`)).setCookie);
    for (const value of ['clear', '1.4.0']) {
      const unpinned = pinsOf(page(`remote.remote-title=${value}`, cookie));
      assert.deepEqual(unpinned.pins, {});
      assert.deepEqual(unpinned.refused, []);
      assert.equal(unpinned.setCookie, `${DEV_PIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
    }
    const repinned = pinsOf(page(`remote.remote-title=dev:http://localhost:3004`, cookie));
    assert.deepEqual(repinned.pins, { 'remote-title': 'http://localhost:3003' });
    assert.match(repinned.refused[0]?.reason ?? '', /QA token/);
  });

  it('unpins only at the browser’s own action (its page, or an address typed in it), never from another site’s link', () => {
    const cookie = sentBack(pinsOf(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`)).setCookie);
    const from = (site: string) => pinsOf({ url: '/title/604?remote.remote-title=clear', headers: { cookie, 'sec-fetch-site': site } });
    for (const site of ['cross-site', 'same-site']) {
      assert.deepEqual(from(site), { pins: { 'remote-title': 'http://localhost:3003' }, token, refused: [], setCookie: null }, site);
    }
    for (const site of ['same-origin', 'none']) assert.deepEqual(from(site).pins, {}, site);
  });

  it('takes no pin from a cookie it did not write, or one naming another origin', () => {
    const forged = (stored: unknown) => `${DEV_PIN_COOKIE}=${Buffer.from(JSON.stringify(stored)).toString('base64url')}`;
    assert.deepEqual(pinsOf({ url: '/', headers: { cookie: forged({ token: `1999999999.${'a'.repeat(22)}.${'a'.repeat(43)}`, pins: { 'remote-title': 'http://localhost:3003' } }) } }).pins, {});
    assert.deepEqual(pinsOf({ url: '/', headers: { cookie: forged({ token, pins: { 'remote-title': 'http://evil.example:3003' } }) } }).pins, {});
    assert.deepEqual(pinsOf({ url: '/', headers: { cookie: `${DEV_PIN_COOKIE}=not json!` } }).pins, {});
  });

  it('sets the cookie Secure for a page served over HTTPS', () => {
    const pins = devPinsFor(page(`qa-token=${token}&remote.remote-title=dev:http://localhost:3003`), { environment: ENVIRONMENT, remotes: REMOTES, qaTokens: standing, qaSecret: SECRET, now: NOW, secure: true });
    assert.match(pins.setCookie ?? '', /; Secure$/);
  });
});

describe('what the pinned browser gets', () => {
  it("names the dev server in that browser's map only, with no hashes", () => {
    const known = { rollout: null, releases: new Map() };
    const pinned = remoteMapFor(ENVIRONMENT, known, settings, { devPins: { 'remote-title': 'http://localhost:3003' } });
    assert.deepEqual(pinned.remotes['remote-title']?.dev, { origin: 'http://localhost:3003', entry: 'http://localhost:3003/mf-manifest.json' });
    assert.equal(pinned.remotes['remote-search']?.dev, undefined);
    const everyone = remoteMapFor(ENVIRONMENT, known, settings);
    assert.ok(Object.values(everyone.remotes).every((rollout) => rollout?.dev === undefined));
  });

  it("gives the page's policy the dev servers' origins, and their websockets under every loopback name", () => {
    assert.deepEqual(devPinSources({ 'remote-title': 'http://localhost:3003', 'remote-search': 'http://127.0.0.1:3014' }), {
      origins: ['http://127.0.0.1:3014', 'http://localhost:3003'],
      websockets: ['ws://localhost:3014', 'ws://127.0.0.1:3014', 'ws://localhost:3003', 'ws://127.0.0.1:3003'],
    });
  });
});
