import { defineConfig } from '@playwright/test';

// The site through its front door: `npm run start:cluster` (nginx in front of two shell instances,
// docs/deploy.md) instead of `npm start`. Same ports, so it runs after the main suite, never beside it.
import chromium from './chromium.json';
import { clusterEnvironment } from './support/clusterEnvironment';
import { siteUrl } from './support/site';

export default defineConfig({
  testDir: './cluster',
  testMatch: '*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Its tests kill and restart the instances every other test depends on: one at a time.
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: siteUrl,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? chromium.executablePath, args: chromium.args },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node --import tsx ../site/cluster/start.mjs',
    url: `${siteUrl}/config.json`,
    // A site already on :8080 may be `npm start`, not the cluster: never measure that.
    reuseExistingServer: false,
    timeout: 600_000,
    // Ctrl-C's way, so the cluster stops what it started (the embedded database included).
    gracefulShutdown: { signal: 'SIGINT', timeout: 15_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    // The specs roll out canaries and let the guard roll them back in a rollout environment of
    // their own (support/clusterEnvironment.ts), laid over the rest of this machine's environment.
    env: { NETNET_ENV: clusterEnvironment },
  },
});
