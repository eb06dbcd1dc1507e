// `npm run test:faults`: runs the fault-injection suite (e2e/specs/faults) in Chromium and prints
// one line per scenario with its outcome. Exits non-zero when any scenario failed, or when
// Playwright itself could not run. Extra arguments go to Playwright (e.g. --output /tmp/pw, -g hang).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const e2e = fileURLToPath(new URL('../e2e', import.meta.url));

/** Flattens Playwright's JSON report into { scenario, outcome, seconds } rows, in file order. */
export function scenarios(report) {
  const rows = [];
  const visit = (suite, path) => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const seconds = results.reduce((sum, result) => sum + (result.duration ?? 0), 0) / 1000;
        rows.push({ file: spec.file ?? suite.file ?? '', scenario: [...here, spec.title].join(' › '), outcome: outcomeOf(test.status), seconds });
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  return rows;
}

function outcomeOf(status) {
  return { expected: 'pass', unexpected: 'FAIL', flaky: 'flaky', skipped: 'skipped' }[status] ?? status;
}

export function table(rows) {
  const header = { file: 'file', scenario: 'scenario', outcome: 'result', seconds: 'time' };
  const width = (key) => Math.max(...[header, ...rows].map((row) => String(row[key]).length));
  const files = Math.min(width('file'), 40);
  const names = Math.min(width('scenario'), 110);
  const cut = (text, size) => (text.length > size ? `${text.slice(0, size - 1)}…` : text.padEnd(size));
  const line = (row) =>
    `${cut(row.file, files)}  ${cut(row.scenario, names)}  ${String(row.outcome).padEnd(7)}  ${String(row.seconds).padStart(6)}`;
  const rule = '-'.repeat(files + names + 19);
  return [line(header), rule, ...rows.map((row) => line({ ...row, seconds: `${row.seconds.toFixed(1)}s` })), rule].join('\n');
}

function run(args) {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-faults-'));
  const reportFile = join(dir, 'report.json');
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', 'specs/faults', '--reporter=list,json', ...args], {
      cwd: e2e,
      stdio: 'inherit',
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile },
    });
    child.on('exit', (code, signal) => {
      let report = null;
      try {
        report = JSON.parse(readFileSync(reportFile, 'utf8'));
      } catch {
        // No report: Playwright failed before running anything; its own output says why.
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code: code ?? (signal ? 1 : 0), report });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { code, report } = await run(process.argv.slice(2));
  if (!report) {
    console.error('\nThe faults suite did not produce a report.');
    process.exit(code || 1);
  }
  const rows = scenarios(report);
  const failed = rows.filter((row) => row.outcome === 'FAIL');
  console.log(`\nFault scenarios\n\n${table(rows)}`);
  console.log(`${rows.length} scenario${rows.length === 1 ? '' : 's'}: ${rows.length - failed.length} passed, ${failed.length} failed.`);
  process.exit(failed.length > 0 || rows.length === 0 ? 1 : code);
}
