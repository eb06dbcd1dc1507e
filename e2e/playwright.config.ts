import { defineConfig } from '@playwright/test';

// End-to-end tests in Debian's Chromium against the production build, served by `npm start`.
import chromium from './chromium.json';
import { siteUrl } from './support/site';

export default defineConfig({
  testDir: './specs',
  // Long specs walk many pages; on two busy cores that takes twice what it does on a quiet machine.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  projects: [
    // The release-health specs send browsers from several networks at once until the guard acts:
    // one of them at a time beside the rest, or together they starve each other's pages on two cores.
    // Listed first, so one worker starts on them while the other takes the site's specs: their
    // visitors mostly wait for beacons and the guard's passes, which the other worker's pages fill.
    // Listed last, they ran alone at the end, a core idle for minutes.
    { name: 'guard', testMatch: /release-health.*\.spec\.ts$/, workers: 1 },
    { name: 'site', testIgnore: [/hostile-releases\.spec\.ts$/, /release-health.*\.spec\.ts$/] },
    // The hostile releases' suite checks the store is as it was while each build ran: run after
    // the rest, so no other spec's releases, tokens or maps change it meanwhile.
    { name: 'alone', testMatch: /hostile-releases\.spec\.ts$/, dependencies: ['site', 'guard'] },
  ],
  use: {
    baseURL: siteUrl,
    // A member who prefers reduced motion: trailers wait for Play, so the pages of specs about
    // other things do not decode video on two cores. The specs about trailers ask for no preference.
    reducedMotion: 'reduce',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? chromium.executablePath, args: chromium.args },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node --import tsx ../site/start.mjs',
    url: `${siteUrl}/config.json`,
    reuseExistingServer: !process.env.CI,
    timeout: 600_000,
    // Ctrl-C's way, so the site stops what it started (the embedded database included).
    gracefulShutdown: { signal: 'SIGINT', timeout: 15_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
