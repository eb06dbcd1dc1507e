// `npm run bench:web`: builds the production site, then for each mode — the server-rendered site
// (`npm start`) and the client-only one (`NETNET_SSR=off npm start`), the site restarted between
// them — measures the first load of /, /browse, /title/604, /search and /my-list in throttled
// headless Chromium (and, in a load of its own, when each answers a member's first click), the
// poster → title navigation, which shared singletons were loaded, and Lighthouse scores; prints one table with both modes and the targets, and writes
// e2e/bench/results/web-<date>.json (and latest.json).
//
//   npm run bench:web -- [--runs N] [--mode ssr|client|both] [--reuse] [--no-lighthouse] [--check]
//
// --reuse measures the site already running, in the mode it runs in (it cannot be restarted).
// --check exits 1 when a target is missed (check.mjs).
import { execFileSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { root } from '../../scripts/build.mjs';
import { cookieHeader, createMember, memberState } from './member.mjs';
import { DEVICE, firstClick, IDLE_MS, loadPage, posterToTitle, SINGLETONS, THROTTLING } from './measure.mjs';
import { checkExitCode } from './check.mjs';
import { checkedTargets, median, printReport, writeResults } from './report.mjs';
import { howRendered, keepSite, site, SITE, siteMode, startSite } from './site.mjs';

import chromiumLaunch from '../chromium.json' with { type: 'json' };

const CHROMIUM = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? chromiumLaunch.executablePath;
const CHROMIUM_FLAGS = chromiumLaunch.args;
const FEATURED_TITLE = 604;
const settings = site.readSite();
const CATALOGUE = `${settings.catalogueUrl}/3`;
const TITLE_ORIGIN = site.origin('remote-title', settings);

/** The two ways the site serves pages, and the environment `npm start` needs for each. */
const MODES = {
  ssr: { label: 'SSR', env: { NETNET_SSR: undefined } },
  client: { label: 'client-only', env: { NETNET_SSR: 'off' } },
};

function options(argv) {
  const valueOf = (flag) => {
    const at = argv.indexOf(flag);
    return at === -1 ? undefined : argv[at + 1];
  };
  const runsArg = valueOf('--runs');
  const runs = runsArg === undefined ? 5 : Number(runsArg);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number of runs, e.g. --runs 5');
  const mode = valueOf('--mode') ?? 'both';
  if (!['both', ...Object.keys(MODES)].includes(mode)) throw new Error('--mode is ssr, client or both');
  return { runs, mode, reuse: argv.includes('--reuse'), lighthouse: !argv.includes('--no-lighthouse') };
}

const main = (page) => page.getByRole('main');
const firstPoster = (page) => main(page).getByRole('list').first().getByRole('link').first();

/**
 * The pages, each with the probe that says its main content is on screen, the role locator that
 * confirms it, and the control a member clicks first (`click`).
 */
function pagesToMeasure(titleName) {
  return [
    {
      path: '/',
      member: false,
      probe: { kind: 'heading' },
      check: (page) => main(page).getByRole('heading', { level: 1 }),
      click: (page) => page.getByRole('link', { name: 'Sign In', exact: true }),
    },
    { path: '/browse', member: true, probe: { kind: 'list' }, check: firstPoster, click: firstPoster },
    {
      path: `/title/${FEATURED_TITLE}`,
      member: true,
      probe: { kind: 'heading', text: titleName },
      check: (page) => main(page).getByRole('heading', { level: 1, name: titleName, exact: true }),
      click: (page) => main(page).getByRole('button', { name: 'Download', exact: true }),
    },
    // remote-search reads the query from ?q= (remote-search/src/pages/Search.tsx).
    {
      path: '/search?q=the',
      member: true,
      probe: { kind: 'list' },
      check: (page) => main(page).getByRole('list').getByRole('link').first(),
      click: (page) => main(page).getByRole('list').getByRole('link').first(),
    },
    // A member who has saved nothing yet: the page reads the list from IndexedDB in the browser.
    {
      path: '/my-list',
      member: true,
      probe: { kind: 'heading', text: 'My list' },
      check: (page) => main(page).getByRole('heading', { level: 1, name: 'My list', exact: true }),
      click: (page) => main(page).getByRole('link', { name: 'Find movies', exact: true }),
    },
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

/** One page's runs: medians of every number (booleans: in how many runs), and the worst singleton state seen. */
function summarise(page, runs, clicks) {
  const pick = (get) => median(runs.map(get));
  const totals = (key) =>
    Object.fromEntries(
      Object.keys(runs[0][key]).map((field) =>
        typeof runs[0][key][field] === 'boolean' ? [field, runs.filter((r) => r[key][field]).length] : [field, pick((r) => r[key][field])],
      ),
    );
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
      ttfbMs: pick((r) => r.ttfbMs),
      htmlBytes: pick((r) => r.html.bytes),
      htmlEncoding: runs[0].html.encoding,
      mainContentMs: pick((r) => r.mainContentMs),
      interactiveMs: pick((r) => r.interactiveMs),
      hydratedMs: pick((r) => r.hydratedMs),
      firstClickMs: median(clicks.map((c) => c.answeredMs)),
      clickHandledMs: median(clicks.map((c) => c.handledMs)),
      clickInputDelayMs: median(clicks.map((c) => c.inputDelayMs)),
      lcpMs: pick((r) => r.lcpMs),
      cls: pick((r) => r.cls),
      usable: totals('usable'),
      interactive: totals('interactive'),
      settled: totals('settled'),
    },
    runCount: runs.length,
    clicks,
    singletons,
    duplicates: [...new Set(runs.flatMap((r) => r.duplicates))],
    problems: [...new Set(runs.flatMap((r) => r.problems))],
    // The request list of the first run only: enough to see what changed, without bloating the file.
    runs: runs.map(({ shared, requests, ...run }, i) => (i === 0 ? { ...run, requests } : run)),
  };
}

/**
 * How the running site answered each page, from its HTML: a visitor's / and the members' pages
 * with the member's cookies. In SSR mode every one should be server-rendered, the members' pages
 * for the member (not the visitor's page a request without the hint cookie gets).
 */
async function renderingOf(pages, storageState) {
  const cookie = cookieHeader(storageState);
  const checks = [];
  for (const page of pages) {
    const response = await fetch(`${SITE}${page.path}`, { headers: page.member ? { cookie } : {}, signal: AbortSignal.timeout(30_000) });
    const { server, hasContent, state } = howRendered(await response.text());
    const forMember = state ? state.member !== null && !state.redirect : null;
    checks.push({ path: page.path, member: page.member, status: response.status, server, hasContent, forMember, redirect: state?.redirect ?? null });
  }
  return checks;
}

async function benchMode(mode, opts, log) {
  const { title } = await (await fetch(`${CATALOGUE}/movie/${FEATURED_TITLE}?language=en-US`)).json();
  const pages = pagesToMeasure(title);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const member = await createMember();
    const { storageState, hintSetByShell } = await memberState(browser, member);
    if (!hintSetByShell) log(`⚠ the shell did not set the netnet-member cookie on sign-in; the benchmark added it.`);
    const rendering = await renderingOf(pages, storageState);
    for (const check of rendering) {
      const expected = mode === 'ssr';
      const fine = check.server === expected && (!expected || !check.member || check.forMember);
      if (!fine)
        log(
          `⚠ ${MODES[mode].label}: ${check.path} (${check.member ? 'member' : 'visitor'}) came ${check.server ? 'server-rendered' : 'without a server render'}` +
            `${check.server && check.member && !check.forMember ? `, for a visitor (redirect to ${check.redirect?.to})` : ''}`,
        );
    }
    const results = new Map(pages.map((page) => [page, []]));
    const clicks = new Map(pages.map((page) => [page, []]));
    const p2t = [];
    // Pages interleaved run by run, so a slow moment of the machine spreads over all of them.
    for (let run = 1; run <= opts.runs; run += 1) {
      const line = [];
      for (const page of pages) {
        const result = await loadPage(browser, { ...page, storageState: page.member ? storageState : undefined });
        results.get(page).push(result);
        let click;
        try {
          click = await firstClick(browser, { ...page, storageState: page.member ? storageState : undefined });
        } catch (error) {
          click = { error: error.message };
        }
        clicks.get(page).push(click);
        const clicked = click.error ? 'click failed' : `click ${Math.round(click.answeredMs ?? NaN)}`;
        line.push(`${page.path} ${Math.round(result.lcpMs ?? NaN)}/${Math.round(result.interactiveMs)}/${Math.round(result.hydratedMs ?? NaN)}/${clicked} ms`);
      }
      try {
        const result = await posterToTitle(browser, { storageState, titleOrigin: TITLE_ORIGIN, check: firstPoster });
        p2t.push(result);
        line.push(`poster → title ${Math.round(result.ms)} ms`);
      } catch (error) {
        p2t.push({ error: error.message });
        line.push('poster → title failed');
      }
      log(`${MODES[mode].label} run ${run}/${opts.runs}: LCP/interactive/hydrated/first click answered ${line.join(', ')}`);
    }

    let lighthouse = { skipped: true };
    if (opts.lighthouse) {
      log(`${MODES[mode].label}: Lighthouse on / and /browse…`);
      const { runLighthouse } = await import('./lighthouse.mjs');
      lighthouse = await runLighthouse({ member, chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
    }

    const measured = [...results].map(([page, runs]) => summarise(page, runs, clicks.get(page)));
    const encodings = {};
    for (const page of measured) for (const [e, n] of Object.entries(page.runs[0].encodings)) encodings[e] = (encodings[e] ?? 0) + n;
    const good = p2t.filter((r) => !r.error);
    return {
      mode,
      label: MODES[mode].label,
      chromium: `Chromium ${browser.version()}`,
      memberHint: hintSetByShell ? 'set by the shell on sign-in' : 'added by the benchmark',
      rendering,
      encodings,
      pages: measured,
      posterToTitle: good.length ? { median: median(good.map((r) => r.ms)), runs: good, failures: p2t.filter((r) => r.error) } : { error: p2t[0]?.error ?? 'no runs' },
      lighthouse,
    };
  } finally {
    await browser.close();
  }
}

/** The modes to measure; a reused site can only be measured in the mode it is running in. */
async function modesToMeasure(opts, log) {
  const asked = opts.mode === 'both' ? Object.keys(MODES) : [opts.mode];
  if (!opts.reuse) return asked;
  let running;
  try {
    running = await siteMode();
  } catch {
    return asked;
  }
  if (!asked.includes(running)) throw new Error(`--reuse: the running site serves ${MODES[running].label} pages, not ${asked.map((m) => MODES[m].label).join(' and ')}.`);
  if (asked.length > 1) log(`--reuse: the running site serves ${MODES[running].label} pages; only that mode is measured (the other needs a restart).`);
  return [running];
}

async function run() {
  const opts = options(process.argv.slice(2));
  const log = (line) => console.log(line);
  const ownSite = keepSite('bench:web');
  try {
    const modes = {};
    for (const mode of await modesToMeasure(opts, log)) {
      log(`— ${MODES[mode].label}${mode === 'client' ? ' (NETNET_SSR=off)' : ''} —`);
      ownSite.hold(await startSite({ reuse: opts.reuse, log, env: MODES[mode].env }));
      const running = await siteMode();
      if (running !== mode) throw new Error(`The site was started for ${MODES[mode].label} pages but serves ${MODES[running].label} ones.`);
      modes[mode] = await benchMode(mode, opts, log);
      await ownSite.stopNow();
    }
    const measured = Object.values(modes);
    const summary = {
      date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      commit: commit(),
      settings: { runs: opts.runs, throttling: THROTTLING, device: DEVICE, idleMs: IDLE_MS, chromium: measured[0].chromium },
      modes,
      singletons: SINGLETONS,
    };
    const targets = printReport(summary, log);
    log('');
    log(`Results: ${writeResults(summary, targets)} (and e2e/bench/results/latest.json)`);
    await ownSite.exit(checkExitCode('bench:web', checkedTargets(summary, targets), log));
  } catch (error) {
    console.error(`bench:web failed: ${error instanceof Error ? error.message : error}`);
    await ownSite.exit(1);
  }
}

run();
