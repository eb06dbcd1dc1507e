// The canary's version and share in the change dialog. A version rolled back for a defect is still
// offered (choosing it again on purpose takes it off the list, as the CLI does), but marked as such
// and never the one chosen first.
import type { Plan } from './types';

export interface CanaryChoice {
  version: string;
  /** As typed: checked by percentValid(). */
  percent: string;
}

/** The shares the API takes: a whole number from 0 to 100, as typed. */
export const percentValid = (percent: string) => /^(100|[1-9]?[0-9])$/.test(percent);

/** Whether `version` was rolled back for a defect in this plan. */
export const wasRolledBack = (plan: Plan | null, version: string) => (plan?.rolledBack ?? []).includes(version);

/** The versions a canary may be (every published one but the stable), oldest first. */
const candidatesOf = (plan: Plan | null, published: string[]) => published.filter((version) => version !== plan?.stable);

/** The canary as it is, else the newest version not rolled back (else the newest), at 10 %. */
export function defaultCanary(plan: Plan | null, published: string[]): CanaryChoice {
  const candidates = candidatesOf(plan, published);
  const fresh = candidates.filter((version) => !wasRolledBack(plan, version));
  return { version: plan?.canary?.version ?? fresh.at(-1) ?? candidates.at(-1) ?? '', percent: String(plan?.canary?.percent ?? 10) };
}

export function CanaryFields({ id, plan, published, choice, onChoice }: { id: string; plan: Plan | null; published: string[]; choice: CanaryChoice; onChoice(choice: CanaryChoice): void }) {
  const valid = percentValid(choice.percent);
  return (
    <div className="fields">
      <label>
        Version
        <select value={choice.version} onChange={(event) => onChoice({ ...choice, version: event.target.value })}>
          {candidatesOf(plan, published).map((version) => (
            <option key={version} value={version}>
              {wasRolledBack(plan, version) ? `${version} (rolled back)` : version}
            </option>
          ))}
        </select>
      </label>
      <label>
        Share of members (%)
        <input inputMode="numeric" value={choice.percent} aria-invalid={!valid} aria-describedby={`${id}-percent`} onChange={(event) => onChoice({ ...choice, percent: event.target.value.trim() })} />
      </label>
      <p id={`${id}-percent`} className={valid ? 'hint' : 'hint refused'}>
        {valid ? 'A whole number from 0 to 100.' : 'Give a whole number from 0 to 100, like 20.'}
      </p>
    </div>
  );
}
