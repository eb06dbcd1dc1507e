// The page's Content-Security-Policy with dev pins (docs/releases.md, "Develop against the real
// site"): a real server (./httpServer.ts) on an ephemeral port, asked for the same page by a
// browser that pinned a dev server and by one that did not. Only the first gets the dev server in
// its policy; the other's is exactly the site's usual one.
// Run: node --import tsx --test shell/server/securityHeaders.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { devPinSources, devPinsFor } from '@netnet/control-plane/instance';
import { newQaTokenId, signQaToken } from '@netnet/control-plane/testing';
import site from '@netnet/site';
import { serveApp } from './httpServer.ts';
import { contentSecurityPolicy } from './securityHeaders.ts';

const SECRET = 'csp-dev-pin-secret';
const ENVIRONMENT = 'csp-test';
const DEV = 'http://127.0.0.1:4321';
const tokenId = newQaTokenId();
const token = signQaToken({ secret: SECRET, environment: ENVIRONMENT, id: tokenId, expires: new Date(Date.now() + 3600_000) });
const dir = mkdtempSync(join(tmpdir(), 'netnet-csp-'));
let server;

before(async () => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Netnet</title>');
  writeFileSync(join(dir, 'app.0123456789.js'), '/* app */');
  const pinsOf = (req) => devPinsFor(req, { environment: ENVIRONMENT, remotes: ['remote-title'], qaTokens: new Set([tokenId]), qaSecret: SECRET });
  server = await serveApp({
    dir,
    port: 0,
    spa: true,
    devServers: (req) => {
      const { pins } = pinsOf(req);
      return Object.keys(pins).length ? devPinSources(pins) : null;
    },
    // The page sets the pin's cookie, as the shell's page server does.
    pages: async (req, res) => {
      const { setCookie } = pinsOf(req);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...(setCookie && { 'Set-Cookie': setCookie }) }).end('<!doctype html>');
    },
    // Nothing set: the site's origins are the table's own.
    env: {},
  });
});
after(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(path, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: server.address().port, path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res));
      })
      .on('error', reject);
  });
}

/** The policy's directives by name. */
const directives = (policy) => Object.fromEntries(policy.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]));

describe('the Content-Security-Policy of a browser with a dev pin', () => {
  let pinned;
  let cookie;
  before(async () => {
    pinned = await get(`/title/604?qa-token=${token}&remote.remote-title=dev:${DEV}`);
    cookie = pinned.headers['set-cookie'][0].split(';')[0];
  });

  it('names the dev server for scripts, styles, images, fonts, media and requests, and its websocket, on the page that pins it', () => {
    const policy = directives(pinned.headers['content-security-policy']);
    for (const name of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src', 'connect-src']) assert.ok(policy[name].includes(DEV), `${name} allows ${DEV}`);
    assert.ok(policy['connect-src'].includes('ws://127.0.0.1:4321'));
    assert.ok(policy['connect-src'].includes('ws://localhost:4321'));
    // style-loader's <style> elements; scripts never inline, never eval.
    assert.ok(policy['style-src'].includes("'unsafe-inline'"));
    assert.ok(!policy['script-src'].some((source) => source.startsWith("'unsafe")));
  });

  it('keeps naming it on the pinned browser’s later pages (the cookie), and only on its documents', async () => {
    const later = await get('/browse', { cookie });
    assert.ok(directives(later.headers['content-security-policy'])['script-src'].includes(DEV));
    const script = await get('/app.0123456789.js', { cookie });
    assert.equal(script.headers['content-security-policy'], undefined);
  });

  it("leaves everyone else's policy exactly as it was", async () => {
    const usual = contentSecurityPolicy(site.readSite({}));
    assert.ok(!usual.includes(DEV));
    for (const [path, headers] of [
      ['/title/604', {}],
      ['/title/604', { cookie: 'netnet-device=abc' }],
      [`/title/604?remote.remote-title=dev:${DEV}`, {}],
      [`/title/604?qa-token=${token}&remote.remote-title=dev:http://evil.example:4321`, {}],
      ['/title/604', { cookie: cookie.replace(/=.*/, '=forged') }],
    ]) {
      const other = await get(path, headers);
      assert.equal(other.headers['content-security-policy'], usual, `${path} ${JSON.stringify(headers)}`);
      assert.equal(other.headers['set-cookie'], undefined);
    }
  });
});
