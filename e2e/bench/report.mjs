// The printed report (a table per page with the targets beside it) and the JSON file that lets
// runs be compared.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const kb = (bytes) => (bytes / 1000).toFixed(1);
const ms = (value) => (value == null ? '–' : String(Math.round(value)));

/** The issue's targets: { page or area, metric, limit, higher = true when it is a minimum }. */
const TARGETS = [
  { page: '/', metric: 'jsGzipKb', label: 'first-load JS gzip', limit: 110, unit: 'KB' },
  { page: '/browse', metric: 'jsGzipKb', label: 'first-load JS gzip', limit: 130, unit: 'KB' },
  { page: '/', metric: 'lcpMs', label: 'LCP', limit: 1500, unit: 'ms' },
  { page: '/browse', metric: 'lcpMs', label: 'LCP', limit: 1500, unit: 'ms' },
  ...['/', '/browse', '/title/604', '/search'].map((page) => ({ page, metric: 'cls', label: 'CLS', limit: 0.05, unit: '' })),
  { page: 'poster → title', metric: 'posterToTitleMs', label: 'click to heading', limit: 300, unit: 'ms' },
  ...['/', '/browse'].flatMap((page) => [
    { page, metric: 'lighthousePerformance', label: 'Lighthouse performance', limit: 95, unit: '', higher: true },
    { page, metric: 'lighthouseAccessibility', label: 'Lighthouse accessibility', limit: 95, unit: '', higher: true },
  ]),
];

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The value each target is judged on, from the medians and the Lighthouse scores. */
function judged(summary) {
  const values = {};
  for (const page of summary.pages) {
    const key = page.path.split('?')[0];
    values[key] = { jsGzipKb: page.median.usable.jsGzipBytes / 1000, lcpMs: page.median.lcpMs, cls: page.median.cls };
    const lh = summary.lighthouse?.[key];
    if (lh) Object.assign(values[key], { lighthousePerformance: lh.performance ?? null, lighthouseAccessibility: lh.accessibility ?? null });
  }
  values['poster → title'] = { posterToTitleMs: summary.posterToTitle?.median ?? null };
  return TARGETS.map((target) => {
    const value = values[target.page]?.[target.metric] ?? null;
    const met = value == null ? null : target.higher ? value >= target.limit : value <= target.limit;
    return { ...target, value, met };
  });
}

const mark = (met) => (met === null ? '?' : met ? '✓' : '✗');
const show = (target) =>
  target.value == null ? 'not measured' : target.metric === 'cls' ? target.value.toFixed(3) : target.unit === 'KB' ? target.value.toFixed(1) : Math.round(target.value);

export function printReport(summary, log = console.log) {
  const targets = judged(summary);
  const markFor = (path, metric) => {
    const target = targets.find((t) => t.page === path.split('?')[0] && t.metric === metric);
    return target ? ` ${mark(target.met)}` : '  ';
  };
  const { settings } = summary;

  log('');
  log(`Netnet web benchmark — ${summary.date}, ${summary.commit}, ${settings.chromium}`);
  log(
    `Throttling: CPU ×${settings.throttling.cpuSlowdown} (Emulation.setCPUThrottlingRate); network per request (Network.emulateNetworkConditions): ` +
      `latency ${settings.throttling.latencyMs} ms, download ${settings.throttling.downloadKbps.toFixed(2)} kbit/s, upload ${settings.throttling.uploadKbps.toFixed(2)} kbit/s (1 kbit = 1024 bit).`,
  );
  log(
    `Viewport ${settings.device.viewport.width}×${settings.device.viewport.height} @${settings.device.deviceScaleFactor}x (mobile). Cold cache: a new browser context per run. ` +
      `Median of ${settings.runs} run${settings.runs === 1 ? '' : 's'}. KB = 1000 bytes.`,
  );
  log(`"Usable" = main content visible; "idle" = usable + ${settings.idleMs / 1000} s. Served encodings of JS/CSS: ${Object.entries(summary.encodings).map(([e, n]) => `${e} ×${n}`).join(', ')}.`);
  log('');

  const header = ['page', 'JS KB served', 'JS KB gzip', 'CSS KB', 'requests', 'LCP ms', 'main content ms', 'CLS', 'JS KB at idle (served / gzip)'];
  const rows = summary.pages.map((page) => {
    const m = page.median;
    return [
      page.member ? page.path : `${page.path} (visitor)`,
      kb(m.usable.jsBytes),
      kb(m.usable.jsGzipBytes) + markFor(page.path, 'jsGzipKb'),
      kb(m.usable.cssBytes),
      Number.isInteger(m.usable.requests) ? String(m.usable.requests) : m.usable.requests.toFixed(1),
      ms(m.lcpMs) + markFor(page.path, 'lcpMs'),
      ms(m.mainContentMs),
      (m.cls == null ? '–' : m.cls.toFixed(3)) + markFor(page.path, 'cls'),
      `${kb(m.idle.jsBytes)} / ${kb(m.idle.jsGzipBytes)}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log(line(header));
  log(line(widths.map((w) => '-'.repeat(w))));
  rows.forEach((r) => log(line(r)));
  log('(JS, CSS and requests until usable; members\' pages signed in.)');
  log('');

  const p2t = summary.posterToTitle;
  if (p2t?.error) log(`Poster → title: not measured (${p2t.error})`);
  else if (p2t) {
    const target = targets.find((t) => t.metric === 'posterToTitleMs');
    const preloaded = p2t.runs.filter((r) => r.preloaded).length;
    log(
      `Poster → title (/browse, hover first poster, 1 s, click → "${p2t.runs[0].title}" h1 visible, throttled): ${ms(p2t.median)} ms median ${mark(target.met)} (target ≤ 300 ms); ` +
        `remote-title preloaded before the click: ${preloaded === p2t.runs.length ? 'yes' : preloaded === 0 ? 'no' : 'sometimes'} (${preloaded}/${p2t.runs.length} runs); ` +
        `loaded with the page: ${p2t.runs.some((r) => r.remoteTitleAtLoad) ? 'yes' : 'no'}.`,
    );
  }
  log('');

  log(`Singletons: one version from one provider loaded (window.__FEDERATION__.__SHARE__), per page`);
  const paths = summary.pages.map((p) => p.path);
  for (const name of summary.singletons) {
    const perPage = summary.pages.map((page) => page.singletons[name]);
    if (perPage.every((s) => s.state === 'absent')) {
      log(`– ${name.padEnd(18)} not in the share scope on any page (not shared)`);
      continue;
    }
    // Registered but never loaded on a page ('–') is not a second copy; only 'one' per page counts as ✓.
    const fine = (s) => s.state === 'one' || s.state === 'unused';
    const ok = perPage.every(fine) && perPage.some((s) => s.state === 'one');
    const loaded = [...new Set(perPage.flatMap((s) => s.loaded))].join(', ') || 'not loaded';
    const cells = perPage.map((s, i) => `${s.state === 'one' ? '✓' : s.state === 'unused' ? '–' : '✗'} ${paths[i]}`).join('  ');
    log(`${ok ? '✓' : '✗'} ${name.padEnd(18)} ${cells}   (${loaded})`);
    for (const [i, s] of perPage.entries())
      if (!fine(s)) log(`    ${paths[i]}: ${s.state === 'absent' ? 'not in the share scope' : `loaded ${s.loaded.join(' and ')}`}`);
  }
  const duplicates = summary.pages.flatMap((p) => p.duplicates.map((d) => `${p.path}: ${d}`));
  log(duplicates.length ? `✗ JS downloaded twice:\n    ${duplicates.join('\n    ')}` : '✓ no JS file path downloaded from two origins, no identical JS under two URLs (every page)');
  log('');

  log('LCP element and layout shifts (first run):');
  for (const page of summary.pages) {
    log(`  ${page.path}: LCP ${page.runs[0].lcpElement ?? 'none'}`);
    for (const shift of page.runs[0].shifts) log(`      shift ${shift.value.toFixed(4)} at ${Math.round(shift.time)} ms: ${shift.sources.filter(Boolean).join(', ') || 'unknown node'}`);
  }
  log('');

  if (summary.lighthouse?.skipped) log('Lighthouse: skipped (--no-lighthouse)');
  else if (summary.lighthouse) {
    log('Lighthouse 12 (mobile, simulated throttling):');
    for (const [path, lh] of Object.entries(summary.lighthouse)) {
      if (lh.error && lh.performance == null) {
        log(`  ${path}: failed — ${lh.error}`);
        continue;
      }
      const perf = targets.find((t) => t.page === path && t.metric === 'lighthousePerformance');
      const a11y = targets.find((t) => t.page === path && t.metric === 'lighthouseAccessibility');
      log(
        `  ${path.padEnd(8)} performance ${lh.performance} ${mark(perf.met)}  accessibility ${lh.accessibility} ${mark(a11y.met)}` +
          `   (LCP ${ms(lh.lcpMs)} ms, FCP ${ms(lh.fcpMs)} ms, TBT ${ms(lh.tbtMs)} ms, CLS ${lh.cls?.toFixed(3)})` +
          (lh.failedAccessibilityAudits?.length ? `  a11y failing: ${lh.failedAccessibilityAudits.join(', ')}` : '') +
          (lh.error ? `  ⚠ ${lh.error}` : ''),
      );
    }
  }
  log('');

  log('Targets:');
  for (const target of targets) {
    if (target.metric.startsWith('lighthouse') && summary.lighthouse?.skipped) continue;
    const limit = `${target.higher ? '≥' : '≤'} ${target.limit}${target.unit ? ` ${target.unit}` : ''}`;
    log(`  ${mark(target.met)} ${`${target.page} ${target.label}`.padEnd(38)} ${String(show(target)).padStart(8)}   target ${limit}   ${target.met === null ? 'not measured' : target.met ? 'met' : 'not met'}`);
  }
  return targets;
}

export function writeResults(summary, targets) {
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `web-${summary.date.replace(/:/g, '-')}.json`);
  const json = `${JSON.stringify({ ...summary, targets }, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(join(RESULTS, 'latest.json'), json);
  return relative(process.cwd(), file);
}
