import { expect } from '../support/test';
import { forgetEnvironment } from '../support/controlPlane';
import { runHostileSuite } from '../support/hostileSuite';
import { testWithShell } from '../support/specShell';

// A team's hostile or broken remote-title releases, published through the control-plane API with
// a token scoped to remote-title and made the canary for every member, against a shell served as
// `npm start` serves it (docs/sandbox.md): each build's render
// code runs in render processes of its own, so it reaches no secret, file, process or store,
// cannot stop or slow the other areas, and its area falls back within its deadline.

const run = Date.now().toString(36);
const ENVIRONMENT = `e2e-hostile-${run}`;
const test = testWithShell(ENVIRONMENT);

test.afterAll(() => forgetEnvironment(ENVIRONMENT));

// Each build's hostile code is seen to run (its report reaches the spec's listener, or its area
// falls back when it stops its process): a pass is never for want of an attack.
test('hostile remote-title releases reach nothing past their own area, and every page still answers on time', async ({ specShell }) => {
  test.setTimeout(600_000);
  const served = async () => ((await (await fetch(`${specShell.url}/remotes.json`)).json()) as { remotes: Record<string, { canary?: { version: string } }> }).remotes['remote-title']?.canary?.version ?? null;
  const outcomes = await runHostileSuite({
    environment: ENVIRONMENT,
    site: specShell.url,
    run,
    waitServed: (version) => expect.poll(served, { timeout: 10_000 }).toBe(version),
  });
  // Each build was either refused at publish by the check that renders it, or rolled out and met.
  expect(outcomes.map((outcome) => outcome.build)).toHaveLength(12);
  expect(outcomes.find((outcome) => outcome.build === 'throws at import')).toMatchObject({ published: 422 });
  // A build that stops its process or hangs is replaced by stable in its area (where the render
  // fell back, or once the guard has rolled the canary back), never by a failed page.
  for (const name of ['loops forever in render', 'allocates without bound', 'calls process.exit']) {
    expect(outcomes.find((outcome) => outcome.build === name)?.titlePage).toMatch(/stable in its place|the guard had rolled the canary back/);
  }
});
