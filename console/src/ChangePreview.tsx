// What a change of a remote would do, as the API's preview says it: what members will get, the
// compatibility gate's answer and, before a promote, the guard's verdict and its evidence. Each
// reason to think twice is a warning of its own: a version rolled back before, a promote on
// evidence that is inconclusive or points to a regression.
import type { ReactNode } from 'react';
import { membersGet } from './format';
import type { Plan, Preview, Verdict } from './types';
import { VerdictBlock } from './VerdictBlock';

function Warning({ children }: { children: ReactNode }) {
  return (
    <p className="warning">Warning: {children}</p>
  );
}

/** Why promoting now is a risk, or null when the guard found the canary healthy. */
function promoteRisk(remote: string, plan: Plan | null, verdict: Verdict | null): string | null {
  if (!verdict || !plan?.canary || verdict.conclusion === 'healthy') return null;
  const { version } = plan.canary;
  if (verdict.conclusion === 'regression') return `the guard finds ${remote} ${version} worse than ${plan.stable} (${verdict.reason}). Promoting sends every member to it.`;
  return `the guard's evidence is inconclusive: ${verdict.reason}. Promoting now sends every member to ${remote} ${version} before the guard could tell whether it fails more than ${plan.stable}.`;
}

export function ChangePreview({ kind, remote, plan, preview, rolledBack }: { kind: 'canary' | 'promote' | 'rollback'; remote: string; plan: Plan | null; preview: Preview; rolledBack: string | null }) {
  const gate = preview.gate;
  const risk = kind === 'promote' ? promoteRisk(remote, plan, preview.verdict) : null;
  return (
    <>
      {rolledBack && (
        <Warning>
          {remote} {rolledBack} was rolled back: it was taken back from members before. Setting it as the canary again sends members to it and takes it off the rolled-back list.
        </Warning>
      )}
      <h3>What members will get</h3>
      <p>{membersGet(remote, preview.after)}</p>
      <h3>Compatibility gate</h3>
      {gate?.passes ? (
        <p className={rolledBack ? undefined : 'ok'}>{rolledBack ? `Compatible, but rolled back: ${gate.message}.` : `Passes: ${gate.message}.`}</p>
      ) : (
        <p className="refused">Refuses: {gate?.message ?? ''}</p>
      )}
      {kind === 'promote' && (
        <>
          <h3>The guard&apos;s evidence</h3>
          <VerdictBlock verdict={preview.verdict} />
          {risk && <Warning>{risk}</Warning>}
        </>
      )}
    </>
  );
}
