// A change of a rollout, confirmed first: the dialog says what members will get and the
// compatibility gate's answer (the API's preview), then sends the change with the plan the person
// saw, so a change someone else made meanwhile is refused (409) rather than overwritten.
import { useEffect, useId, useRef, useState } from 'react';
import { ApiFailure, call, envPath, get, v1Path } from './api';
import { describePlan, membersGet } from './format';
import type { PinPolicy, Plan, Preview } from './types';

export type Change = { kind: 'canary' | 'promote' | 'rollback'; remote: string; plan: Plan | null; published: string[] } | { kind: 'pins'; policy: PinPolicy };

export interface Outcome {
  /** What to tell the person (a polite live region). */
  message: string;
  /** 409: someone else changed it first. */
  conflict: boolean;
  /** 401: the session ended (expired, or its token revoked). */
  ended?: boolean;
}

const TITLES = { canary: 'Set the canary', promote: 'Promote the canary', rollback: 'Roll back', pins: 'Change the pin policy' };

function defaultCanary(change: Extract<Change, { remote: string }>) {
  const candidates = change.published.filter((version) => version !== change.plan?.stable);
  return { version: change.plan?.canary?.version ?? candidates[candidates.length - 1] ?? '', percent: String(change.plan?.canary?.percent ?? 10) };
}

export function ChangeDialog({ environment, change, onDone }: { environment: string; change: Change; onDone(outcome: Outcome | null): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [canary, setCanary] = useState(() => (change.kind === 'canary' ? defaultCanary(change) : { version: '', percent: '' }));
  const [pins, setPins] = useState(() => (change.kind === 'pins' ? change.policy : { production: false, pinRolledBack: false }));
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const percentValid = /^(100|[1-9]?[0-9])$/.test(canary.percent);
  useEffect(() => {
    if (change.kind === 'pins') return;
    if (change.kind === 'canary' && (!percentValid || !canary.version)) {
      setPreview(null);
      return;
    }
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
  }, [change, environment, canary.version, canary.percent, percentValid]);

  async function confirm() {
    setSending(true);
    setProblem(null);
    try {
      if (change.kind === 'pins') {
        await call('PUT', `${v1Path(environment)}/pin-policy`, { ...pins, expected: change.policy });
        onDone({ message: `Pin policy of ${environment} changed.`, conflict: false });
        return;
      }
      const base = `${v1Path(environment)}/remotes/${encodeURIComponent(change.remote)}`;
      const expected = change.plan;
      if (change.kind === 'canary') await call('PUT', `${base}/canary`, { version: canary.version, percent: Number(canary.percent), expected });
      else await call('POST', `${base}/${change.kind}`, { expected });
      onDone({ message: `${change.remote} in ${environment}: ${describePlan(preview?.after)}.`, conflict: false });
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 409) onDone({ message: error.message, conflict: true });
      else if (error instanceof ApiFailure && error.status === 401) onDone({ message: `nothing was changed: ${error.message}`, conflict: false, ended: true });
      else setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  }

  const blocked = change.kind !== 'pins' && (!preview || preview.refused !== null || preview.gate?.passes === false);
  const title = `${TITLES[change.kind]}${change.kind === 'pins' ? ` of ${environment}` : `: ${change.remote} in ${environment}`}`;
  return (
    <dialog ref={dialog} aria-labelledby={`${id}-title`} className="dialog" onClose={() => onDone(null)}>
      <h2 id={`${id}-title`}>{title}</h2>
      {change.kind !== 'pins' && <p>Now: {describePlan(change.plan)}.</p>}
      {change.kind === 'canary' && (
        <div className="fields">
          <label>
            Version
            <select value={canary.version} onChange={(event) => setCanary({ ...canary, version: event.target.value })}>
              {change.published
                .filter((version) => version !== change.plan?.stable)
                .map((version) => (
                  <option key={version}>{version}</option>
                ))}
            </select>
          </label>
          <label>
            Share of members (%)
            <input inputMode="numeric" value={canary.percent} aria-invalid={!percentValid} aria-describedby={`${id}-percent`} onChange={(event) => setCanary({ ...canary, percent: event.target.value.trim() })} />
          </label>
          <p id={`${id}-percent`} className="hint">
            {percentValid ? 'A whole number from 0 to 100.' : 'Give a whole number from 0 to 100, like 20.'}
          </p>
        </div>
      )}
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
        {change.kind !== 'pins' && !preview && !problem && <p>Checking what this change would do…</p>}
        {preview?.refused && (
          <p className="refused" role="alert">
            This change is refused: {preview.refused}
          </p>
        )}
        {preview && !preview.refused && change.kind !== 'pins' && (
          <>
            <h3>What members will get</h3>
            <p>{membersGet(change.remote, preview.after)}</p>
            <h3>Compatibility gate</h3>
            <p className={preview.gate?.passes ? 'ok' : 'refused'}>{preview.gate?.passes ? `Passes: ${preview.gate.message}.` : `Refuses: ${preview.gate?.message ?? ''}`}</p>
          </>
        )}
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
      <div className="buttons">
        <button type="button" className="primary" disabled={blocked || sending} onClick={() => void confirm()}>
          {sending ? 'Applying…' : 'Confirm'}
        </button>
        <button type="button" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
