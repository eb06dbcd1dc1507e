// The guard's verdict on a canary and the evidence behind it, as the overview, a remote's page and
// the Promote dialog show it.
import { ms, percent } from './format';
import type { Verdict } from './types';

const VERDICTS = { wait: 'Waiting', rollback: 'Would roll back', widen: 'Would widen' };

export function VerdictBlock({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) return <p className="muted">No canary: nothing for the guard to judge.</p>;
  const { canary, stable } = verdict.evidence;
  return (
    <div className={`verdict ${verdict.action}`}>
      <p>
        <strong>Guard: {VERDICTS[verdict.action]}</strong> — {verdict.reason}
      </p>
      <p className="muted">
        Evidence: canary {canary.failures} failed of {canary.sessions} sessions ({percent(canary.rate, 2)}, LCP p75 {ms(canary.lcpP75)}); stable {stable.failures} of {stable.sessions} (
        {percent(stable.rate, 2)}, LCP p75 {ms(stable.lcpP75)}).
      </p>
    </div>
  );
}
