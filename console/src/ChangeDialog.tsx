// A change of a rollout, confirmed first: the dialog says what members will get, the compatibility
// gate's answer and, for a promote, the guard's evidence (the API's preview), asks why (the audit
// trail keeps it), then sends the change with the plan the person saw, so a change someone else
// made meanwhile is refused (409) rather than overwritten. Confirmed or cancelled, the dialog
// closes the same way: the browser, then the console (App.tsx), give focus back to the control
// that opened it.
import { useEffect, useId, useRef, useState } from 'react';
import { ApiFailure, call, envPath, get, v1Path } from './api';
import { CanaryFields, defaultCanary, percentValid, wasRolledBack } from './CanaryFields';
import { ChangePreview } from './ChangePreview';
import { describePlan } from './format';
import type { PinPolicy, Plan, Preview } from './types';

export type Change = { kind: 'canary' | 'promote' | 'rollback'; remote: string; plan: Plan | null; published: string[] } | { kind: 'pins'; policy: PinPolicy };

/** Opens the dialog for `change`; `opener`: the control that asked for it, which gets focus back. */
export type OpenChange = (change: Change, opener: HTMLElement) => void;

export interface Outcome {
  /** What to tell the person (a polite live region). */
  message: string;
  /** 409: someone else changed it first. */
  conflict: boolean;
  /** 401: the session ended (expired, or its token revoked). */
  ended?: boolean;
}

/** The most the API keeps of a reason (control-plane/src/api/schemas.ts, REASON_MAX). */
const REASON_MAX = 500;

const TITLES = { canary: 'Set the canary', promote: 'Promote the canary', rollback: 'Roll back', pins: 'Change the pin policy' };

export function ChangeDialog({ environment, change, onDone }: { environment: string; change: Change; onDone(outcome: Outcome | null): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // What the dialog ends with, read when it has closed (Cancel and Escape end with nothing).
  const outcome = useRef<Outcome | null>(null);
  const id = useId();
  const [canary, setCanary] = useState(() => (change.kind === 'canary' ? defaultCanary(change.plan, change.published) : { version: '', percent: '' }));
  const [pins, setPins] = useState(() => (change.kind === 'pins' ? change.policy : { production: false, pinRolledBack: false }));
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  // A share or version the API would refuse is not sent for a preview: the hint says what is wrong.
  const choiceValid = change.kind !== 'canary' || (percentValid(canary.percent) && canary.version !== '');
  useEffect(() => {
    if (change.kind === 'pins') return;
    // What another choice would do is not shown for this one, nor confirmed: its own preview comes.
    setPreview(null);
    if (!choiceValid) return;
    const query = new URLSearchParams({ command: change.kind, ...(change.kind === 'canary' ? { version: canary.version, percent: canary.percent } : {}) });
    let current = true;
    get<Preview>(`${envPath(environment)}/remotes/${encodeURIComponent(change.remote)}/preview?${query}`)
      .then((answer) => {
        if (!current) return;
        setPreview(answer);
        setProblem(null);
      })
      .catch((error: unknown) => current && setProblem(error instanceof Error ? error.message : String(error)));
    return () => {
      current = false;
    };
  }, [change, environment, canary.version, canary.percent, choiceValid]);

  /** Ends the dialog with `result`: closed first, so focus goes back as it does on Cancel. */
  function finish(result: Outcome) {
    const element = dialog.current;
    if (element?.open) {
      outcome.current = result;
      element.close();
    } else onDone(result);
  }

  async function confirm() {
    setSending(true);
    setProblem(null);
    const why = reason.trim();
    try {
      if (change.kind === 'pins') {
        await call('PUT', `${v1Path(environment)}/pin-policy`, { ...pins, expected: change.policy, reason: why });
        finish({ message: `Pin policy of ${environment} changed.`, conflict: false });
        return;
      }
      const base = `${v1Path(environment)}/remotes/${encodeURIComponent(change.remote)}`;
      const expected = change.plan;
      if (change.kind === 'canary') await call('PUT', `${base}/canary`, { version: canary.version, percent: Number(canary.percent), expected, reason: why });
      else await call('POST', `${base}/${change.kind}`, { expected, reason: why });
      finish({ message: `${change.remote} in ${environment}: ${describePlan(preview?.after)}.`, conflict: false });
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 409) finish({ message: error.message, conflict: true });
      else if (error instanceof ApiFailure && error.status === 401) finish({ message: `nothing was changed: ${error.message}`, conflict: false, ended: true });
      else setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  }

  const reasonMissing = reason.trim() === '';
  const blocked = reasonMissing || (change.kind !== 'pins' && (!preview || preview.refused !== null || preview.gate?.passes === false));
  const title = `${TITLES[change.kind]}${change.kind === 'pins' ? ` of ${environment}` : `: ${change.remote} in ${environment}`}`;
  const rolledBack = change.kind === 'canary' && wasRolledBack(change.plan, canary.version) ? canary.version : null;
  return (
    <dialog ref={dialog} aria-labelledby={`${id}-title`} className="dialog" onClose={() => onDone(outcome.current)}>
      <h2 id={`${id}-title`}>{title}</h2>
      {change.kind !== 'pins' && <p>Now: {describePlan(change.plan)}.</p>}
      {change.kind === 'canary' && <CanaryFields id={id} plan={change.plan} published={change.published} choice={canary} onChoice={setCanary} />}
      {change.kind === 'pins' && (
        <div className="fields">
          <label className="check">
            <input type="checkbox" checked={pins.production} onChange={(event) => setPins({ ...pins, production: event.target.checked })} />
            Production: QA may pin only with a QA token
          </label>
          <label className="check">
            <input type="checkbox" checked={pins.pinRolledBack} onChange={(event) => setPins({ ...pins, pinRolledBack: event.target.checked })} />
            Releases rolled back may still be pinned
          </label>
        </div>
      )}
      <div aria-live="polite">
        {change.kind !== 'pins' && choiceValid && !preview && !problem && <p>Checking what this change would do…</p>}
        {preview?.refused && (
          <p className="refused" role="alert">
            This change is refused: {preview.refused}
          </p>
        )}
        {preview && !preview.refused && change.kind !== 'pins' && <ChangePreview kind={change.kind} remote={change.remote} plan={change.plan} preview={preview} rolledBack={rolledBack} />}
        {change.kind === 'pins' && (
          <p>
            {pins.production ? 'QA pins need a QA token in this environment.' : 'Any browser may pin a pinnable release here.'}{' '}
            {pins.pinRolledBack ? 'Rolled-back releases stay pinnable.' : 'Rolled-back releases cannot be pinned.'}
          </p>
        )}
        {problem && (
          <p className="refused" role="alert">
            {problem}
          </p>
        )}
      </div>
      <div className="fields">
        <label className="reason-field">
          Reason
          <input value={reason} required maxLength={REASON_MAX} aria-describedby={`${id}-reason`} onChange={(event) => setReason(event.target.value)} />
        </label>
        <p id={`${id}-reason`} className="hint">
          Required: why you make this change. The audit trail keeps it beside your name.
        </p>
      </div>
      <div className="buttons">
        <button type="button" className="primary" disabled={blocked || sending} aria-describedby={reasonMissing ? `${id}-reason` : undefined} onClick={() => void confirm()}>
          {sending ? 'Applying…' : 'Confirm'}
        </button>
        <button type="button" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
