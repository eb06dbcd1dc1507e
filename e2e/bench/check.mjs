// `--check`, for every benchmark: exit 1 when the run missed a target of docs/performance.md, so a
// person or a pipeline can gate on it. Without it a benchmark reports and exits 0 whatever it
// measured (it still exits 1 when it fails to run, or finds a correctness bug such as reports
// acknowledged and not stored).

export const checking = process.argv.includes('--check');

/** ✓ met, ✗ missed, ? not measured (which --check counts as missed: a gate passes on figures only). */
export const mark = (met) => (met === true ? '✓' : met === false ? '✗' : '?');

/**
 * The exit code for a run judged on `targets` ({ label, met: true | false | null }): 1 when
 * --check is on and any target is not met. Says which ones, as the last lines of the run.
 */
export function checkExitCode(name, targets, log = console.log) {
  if (!checking) return 0;
  const missed = targets.filter((target) => target.met !== true);
  log('');
  if (missed.length === 0) {
    log(`${name} --check: all ${targets.length} targets met.`);
    return 0;
  }
  log(`${name} --check: ${missed.length} of ${targets.length} targets missed (exit 1):`);
  for (const target of missed) log(`  ${mark(target.met)} ${target.label}`);
  return 1;
}
