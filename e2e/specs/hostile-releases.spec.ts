import { expect } from '../support/test';
import { forgetEnvironment } from '../support/controlPlane';
import { runHostileSuite } from '../support/hostileSuite';
import { testWithShell } from '../support/specShell';

// A team's hostile or broken remote-title releases, published through the control-plane API with
// a token scoped to remote-title and made the canary for every member, against a shell served as
// `npm start` serves it (docs/sandbox.md): each build's render code runs in a render process of
// its own, sandboxed by the OS, so it reaches no secret, file, socket, process or store, cannot
// crash or slow what reads its channel, and its area falls back within its deadline.

const run = Date.now().toString(36);
const ENVIRONMENT = `e2e-hostile-${run}`;
const test = testWithShell(ENVIRONMENT);

test.afterAll(() => forgetEnvironment(ENVIRONMENT));

// Each build's hostile code is seen to run (what it got is in the page it rendered, under its
// name, or the server saw it stop its process): a pass is never for want of an attack.
test('hostile remote-title releases reach nothing past their own area, and every page still answers on time', async ({ specShell }) => {
  test.setTimeout(600_000);
  const served = async () => ((await (await fetch(`${specShell.url}/remotes.json`)).json()) as { remotes: Record<string, { canary?: { version: string } }> }).remotes['remote-title']?.canary?.version ?? null;
  const outcomes = await runHostileSuite({
    environment: ENVIRONMENT,
    site: specShell.url,
    run,
    waitServed: (version) => expect.poll(served, { timeout: 10_000 }).toBe(version),
    logged: specShell.logged,
    // The spec's shell runs in this process; the control-plane API beside it.
    serverPids: [process.pid],
  });
  expect(outcomes.map((outcome) => outcome.build)).toHaveLength(18);
});
