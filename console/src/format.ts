// How the console writes figures, times and plans.
import type { Plan } from './types';

export const percent = (rate: number | null, digits = 1) => (rate === null ? '–' : `${(rate * 100).toFixed(digits)} %`);

export const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

export const when = (iso: string) => {
  const at = new Date(iso);
  return `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 19)} UTC`;
};

export const clock = (minute: number) => new Date(minute * 60_000).toISOString().slice(11, 16);

export function bytes(value: number | null) {
  if (value === null) return '–';
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / 1024 / 1024).toFixed(2)} MB`;
}

/** A plan in words: what it serves. */
export function describePlan(plan: Plan | null | undefined): string {
  if (!plan) return 'its own build (nothing rolled out)';
  return plan.canary ? `stable ${plan.stable}, canary ${plan.canary.version} at ${plan.canary.percent} %` : `stable ${plan.stable}, no canary`;
}

/** What new members get under a plan. */
export function membersGet(remote: string, plan: Plan | null | undefined): string {
  if (!plan) return `Members get ${remote} from its own build.`;
  if (!plan.canary || plan.canary.percent === 0) return `Every member gets ${remote} ${plan.stable}.`;
  if (plan.canary.percent === 100) return `Every member gets ${remote} ${plan.canary.version} (the canary).`;
  return `${plan.canary.percent} % of members get ${remote} ${plan.canary.version} (the canary); the other ${100 - plan.canary.percent} % get ${plan.stable}. Members already in the canary stay in.`;
}

/** What changed between two plans of a remote, in words. */
export function planChange(before: Plan | null | undefined, after: Plan | null | undefined): string {
  const was = describePlan(before);
  const now = describePlan(after);
  return was === now ? `still ${now}` : `${was} → ${now}`;
}
