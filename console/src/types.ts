// The shapes the control-plane API's console calls answer with (control-plane/src/api/console/views.ts).

export interface Canary {
  version: string;
  percent: number;
}

export interface Plan {
  stable: string;
  canary?: Canary;
  history?: string[];
  rolledBack?: string[];
}

export interface Session {
  person: string;
  actor: string;
  scope: { remotes: string[]; environments: string[]; actions: string[] };
  csrf: string;
  expiresAt: string;
  environments?: string[];
}

export interface Totals {
  sessions: number;
  failures: number;
  fellBack: number;
  rate: number | null;
  lcpP75: number | null;
}

/** What the guard's evidence says so far: inconclusive until its failure test reaches a boundary. */
export type Conclusion = 'healthy' | 'inconclusive' | 'regression';

export interface Verdict {
  action: 'rollback' | 'widen' | 'wait';
  why: string;
  reason: string;
  conclusion: Conclusion;
  evidence: { canary: Totals; stable: Totals };
}

/** Why an action is refused to this person, or null when they may do it. */
export type Can = Record<'canary' | 'promote' | 'rollback', string | null>;

export interface MinuteRate {
  minute: number;
  sessions: number;
  failures: number;
}

export interface RemoteSummary {
  remote: string;
  plan: Plan | null;
  served: { pinnable: string[] };
  published: string[];
  verdict: Verdict | null;
  failureRates: { release: string; channel: string; totals: Totals; minutes: MinuteRate[] }[];
  can: Can;
}

export interface PinPolicy {
  production: boolean;
  pinRolledBack: boolean;
}

export interface Overview {
  environment: string;
  mapVersion: number;
  readAt: string;
  pinPolicy: PinPolicy;
  canChangePins: string | null;
  remotes: RemoteSummary[];
}

export interface AuditEntry {
  id: number;
  mapVersion: number;
  at: string;
  actor: string;
  action: string;
  remote: string | null;
  reason: string | null;
  plan: Plan | null;
  before: Plan | null;
}

export interface AuditView {
  environment: string;
  remote: string | null;
  actor: string | null;
  actors: string[];
  entries: AuditEntry[];
}

export interface Minute {
  minute: number;
  sessions: number;
  failures: number;
  rate: number | null;
  lcpP75: number | null;
}

export interface Mark {
  at: string;
  guard: boolean;
  actor: string;
  action: string;
  reason: string | null;
}

export interface ReleaseRow {
  version: string;
  publishedAt: string;
  publishedBy: string;
  bytes: number | null;
  files: number | null;
  integrity: string;
  verified: boolean;
}

export interface RemoteView {
  environment: string;
  remote: string;
  mapVersion: number;
  readAt: string;
  plan: Plan | null;
  verdict: Verdict | null;
  can: Can;
  releases: ReleaseRow[];
  chart: { from: number; to: number; stable: Minute[]; canary: Minute[]; marks: Mark[] };
  audit: AuditEntry[];
}

export interface Preview {
  before: Plan | null;
  after: Plan | null;
  gate: { passes: boolean; message: string } | null;
  refused: string | null;
  /** The guard's verdict on the canary now (null: no canary). */
  verdict: Verdict | null;
}
