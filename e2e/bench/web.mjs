// `npm run bench:web` (issue 9): builds and starts the production site, measures the first load of
// /, /browse, /title/604 and /search in throttled headless Chromium, the poster → title
// navigation, which shared singletons were loaded, and Lighthouse scores; prints a table with the
// targets and writes e2e/bench/results/web-<date>.json (and latest.json).
//
//   npm run bench:web -- [--runs N] [--reuse] [--no-lighthouse]
import { execFileSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { root } from '../../scripts/build.mjs';
import { createMember, memberState } from './member.mjs';
import { DEVICE, IDLE_MS, loadPage, posterToTitle, SINGLETONS, THROTTLING } from './measure.mjs';
import { median, printReport, writeResults } from './report.mjs';
import { site, startSite } from './site.mjs';

import chromiumLaunch from '../chromium.json' with { type: 'json' };

const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? chromiumLaunch.executablePath;
const CHROMIUM_FLAGS = chromiumLaunch.args;
const FEATURED_TITLE = 604;
const CATALOGUE = `${site.runtimeConfig().catalogueUrl}/3`;
const TITLE_ORIGIN = site.origin('remote-title');

function options(argv) {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt === -1 ? 5 : Number(argv[runsAt + 1]);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number of runs, e.g. --runs 5');
  return { runs, reuse: argv.includes('--reuse'), lighthouse: !argv.includes('--no-lighthouse') };
}

const main = (page) => page.getByRole('main');
const firstPoster = (page) => main(page).getByRole('list').first().getByRole('link').first();

/** The pages, each with the probe that says its main content is on screen and the role locator that confirms it. */
function pagesToMeasure(titleName) {
  return [
    { path: '/', member: false, probe: { kind: 'heading' }, check: (page) => main(page).getByRole('heading', { level: 1 }) },
    { path: '/browse', member: true, probe: { kind: 'list' }, check: firstPoster },
    {
      path: `/title/${FEATURED_TITLE}`,
      member: true,
      probe: { kind: 'heading', text: titleName },
      check: (page) => main(page).getByRole('heading', { level: 1, name: titleName, exact: true }),
    },
    // remote-search reads the query from ?q= (remote-search/src/pages/Search.tsx).
    { path: '/search?q=the', member: true, probe: { kind: 'list' }, check: (page) => main(page).getByRole('list').getByRole('link').first() },
  ];
}

function commit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return `commit ${head}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'commit unknown';
  }
}

/** One page's runs: medians of every number, and the worst singleton state seen. */
function summarise(page, runs) {
  const pick = (get) => median(runs.map(get));
  const totals = (key) => Object.fromEntries(Object.keys(runs[0][key]).map((field) => [field, pick((r) => r[key][field])]));
  const singletons = {};
  for (const name of SINGLETONS) {
    const states = runs.map(({ shared }) => {
      const { registered, loaded } = shared[name];
      return loaded.length === 1 ? 'one' : loaded.length > 1 ? 'several' : registered.length ? 'unused' : 'absent';
    });
    const order = ['several', 'absent', 'unused', 'one'];
    singletons[name] = {
      state: order.find((state) => states.includes(state)),
      loaded: [...new Set(runs.flatMap((r) => r.shared[name].loaded))],
    };
  }
  return {
    path: page.path,
    member: page.member,
    median: {
      mainContentMs: pick((r) => r.mainContentMs),
      lcpMs: pick((r) => r.lcpMs),
      cls: pick((r) => r.cls),
      usable: totals('usable'),
      idle: totals('idle'),
    },
    singletons,
    duplicates: [...new Set(runs.flatMap((r) => r.duplicates))],
    // The request list of the first run only: enough to see what changed, without bloating the file.
    runs: runs.map(({ shared, requests, ...run }, i) => (i === 0 ? { ...run, requests } : run)),
  };
}

async function bench(opts, log) {
  const { title } = await (await fetch(`${CATALOGUE}/movie/${FEATURED_TITLE}?language=en-US`)).json();
  const pages = pagesToMeasure(title);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const member = await createMember();
    const storageState = await memberState(browser, member);
    const results = new Map(pages.map((page) => [page, []]));
    const p2t = [];
    // Pages interleaved run by run, so a slow moment of the machine spreads over all of them.
    for (let run = 1; run <= opts.runs; run += 1) {
      const line = [];
      for (const page of pages) {
        const result = await loadPage(browser, { ...page, storageState: page.member ? storageState : undefined });
        results.get(page).push(result);
        line.push(`${page.path} ${Math.round(result.mainContentMs)} ms`);
      }
      try {
        const result = await posterToTitle(browser, { storageState, titleOrigin: TITLE_ORIGIN, check: firstPoster });
        p2t.push(result);
        line.push(`poster → title ${Math.round(result.ms)} ms`);
      } catch (error) {
        p2t.push({ error: error.message });
        line.push('poster → title failed');
      }
      log(`run ${run}/${opts.runs}: main content ${line.join(', ')}`);
    }

    let lighthouse = { skipped: true };
    if (opts.lighthouse) {
      log('Lighthouse on / and /browse…');
      const { runLighthouse } = await import('./lighthouse.mjs');
      lighthouse = await runLighthouse({ member, chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
    }

    const measured = [...results].map(([page, runs]) => summarise(page, runs));
    const encodings = {};
    for (const page of measured) for (const [e, n] of Object.entries(page.runs[0].encodings)) encodings[e] = (encodings[e] ?? 0) + n;
    const good = p2t.filter((r) => !r.error);
    return {
      date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      commit: commit(),
      settings: { runs: opts.runs, throttling: THROTTLING, device: DEVICE, idleMs: IDLE_MS, chromium: `Chromium ${browser.version()}` },
      encodings,
      pages: measured,
      posterToTitle: good.length ? { median: median(good.map((r) => r.ms)), runs: good, failures: p2t.filter((r) => r.error) } : { error: p2t[0]?.error ?? 'no runs' },
      singletons: SINGLETONS,
      lighthouse,
    };
  } finally {
    await browser.close();
  }
}

async function run() {
  const opts = options(process.argv.slice(2));
  const log = (line) => console.log(line);
  let stop = async () => {};
  let stopping = false;
  const shutDown = async (code) => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(code);
  };
  // Ctrl-C reaches this process, not the site's own process group: stop the site first.
  process.on('SIGINT', () => shutDown(130));
  process.on('SIGTERM', () => shutDown(143));
  try {
    stop = await startSite({ reuse: opts.reuse, log });
    const summary = await bench(opts, log);
    const targets = printReport(summary, log);
    log('');
    log(`Results: ${writeResults(summary, targets)} (and e2e/bench/results/latest.json)`);
    await shutDown(0);
  } catch (error) {
    console.error(`bench:web failed: ${error instanceof Error ? error.message : error}`);
    await shutDown(1);
  }
}

run();
