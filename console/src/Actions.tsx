// A remote's actions: each enabled only within the person's scope; a refused one stays visible,
// disabled, with the reason beside it (the API would refuse it anyway: 403).
import { useId } from 'react';
import type { OpenChange } from './ChangeDialog';
import type { Can, Plan } from './types';

const LABELS = { canary: 'Set canary share', promote: 'Promote', rollback: 'Roll back' } as const;

export function Actions({ remote, plan, published, can, onChange }: { remote: string; plan: Plan | null; published: string[]; can: Can; onChange: OpenChange }) {
  const id = useId();
  const reasons = (Object.keys(LABELS) as (keyof typeof LABELS)[])
    .map((kind) => ({ kind, refused: can[kind] ?? availability(kind, plan) }))
    .filter((item) => item.refused !== null);
  const distinct = [...new Set(reasons.map((item) => item.refused))];
  return (
    <div className="actions">
      {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((kind) => {
        const refused = can[kind] ?? availability(kind, plan);
        const reasonId = refused === null ? undefined : `${id}-${distinct.indexOf(refused)}`;
        return (
          <button key={kind} type="button" disabled={refused !== null} aria-describedby={reasonId} onClick={(event) => onChange({ kind, remote, plan, published }, event.currentTarget)}>
            {LABELS[kind]}
            <span className="nn-visually-hidden"> {remote}</span>
          </button>
        );
      })}
      {distinct.map((reason, index) => (
        <p key={reason} id={`${id}-${index}`} className="reason">
          {reason}
        </p>
      ))}
    </div>
  );
}

/** Why an action has nothing to act on now (the scope allows it). */
function availability(kind: keyof typeof LABELS, plan: Plan | null): string | null {
  if (!plan) return 'Nothing is rolled out here yet: set a stable release first (npm run rollout -- stable).';
  if (kind === 'promote' && !plan.canary) return 'No canary to promote.';
  if (kind === 'rollback' && !plan.canary && !(plan.history ?? []).length) return 'No canary and no earlier stable to go back to.';
  return null;
}
