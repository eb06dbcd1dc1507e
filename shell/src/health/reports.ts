import type { Channel } from '@netnet/rollout';
import { REPORT_LIMITS, withinBounds, type Outcome, type Report, type ReportedChannel, type Vital, type Vitals } from '@netnet/rollout/reports';
import type { RemoteName } from '../federation/remotes';

// What this document tells the site's server about the releases it used: one session per release
// with its outcome, and the page's web vitals as samples, in the one report format of
// @netnet/rollout (docs/release-health.md), which the collector checks too: a report outside its
// bounds, or naming a version too long, would refuse the whole batch, so it is never queued.

export type { Outcome, Vitals };
export type VitalName = Vital;

/** One release of one remote, on the channel this page got it from. */
export interface ReleaseRef {
  remote: RemoteName;
  version: string;
  channel: Channel;
}

export type HealthReport = Report<RemoteName>;

const MAX_VERSION_LENGTH = REPORT_LIMITS.maxVersionLength;

interface Session {
  outcome: Outcome;
  sent: boolean;
  /** A failure after the session went out as loaded has been sent as one more session. */
  failedAfterSend: boolean;
}

export interface Sessions {
  /**
   * Records how a release did in this document. The first outcome stands, except that a failure
   * replaces `loaded` while the report is still queued; once `loaded` went out, a failure goes
   * out as one more session (the figures count it as one more failed session), and only once.
   * True when something new is waiting to be sent.
   */
  settle(release: ReleaseRef, outcome: Outcome): boolean;
  /** Adds vitals samples (no session) for a release. True when something new is waiting. */
  addVitals(release: ReleaseRef, vitals: Vitals): boolean;
  /** Everything waiting (sessions first, then later failures and vitals), now counted as sent. */
  take(): HealthReport[];
}

const keyOf = ({ remote, version, channel }: ReleaseRef) => `${remote}@${version}#${channel}`;
/** A dev server's area is no release: nothing of it is reported. */
const reported = (channel: Channel): channel is ReportedChannel => channel !== 'dev';
const sendable = ({ version, channel }: ReleaseRef) => version.length <= MAX_VERSION_LENGTH && reported(channel);
const reportOf = ({ remote, version, channel }: ReleaseRef): HealthReport => ({ remote, release: version, channel: channel as ReportedChannel });

export function createSessions(): Sessions {
  const sessions = new Map<string, { release: ReleaseRef; session: Session }>();
  // Reports that are not the session's first: failures after it went out, and vitals.
  let queued: { release: ReleaseRef; outcome?: Outcome; vitals?: Vitals }[] = [];
  // Sessions not sent yet.
  let waiting: string[] = [];

  return {
    settle(release, outcome) {
      if (!sendable(release)) return false;
      const key = keyOf(release);
      const known = sessions.get(key);
      if (!known) {
        sessions.set(key, { release, session: { outcome, sent: false, failedAfterSend: false } });
        waiting.push(key);
        return true;
      }
      const { session } = known;
      if (outcome === 'loaded' || session.outcome !== 'loaded') return false;
      if (!session.sent) {
        session.outcome = outcome;
        return true;
      }
      if (session.failedAfterSend) return false;
      session.failedAfterSend = true;
      queued.push({ release, outcome });
      return true;
    },
    addVitals(release, vitals) {
      if (!sendable(release)) return false;
      const kept = Object.fromEntries(
        (Object.entries(vitals) as [VitalName, number | undefined][]).filter(
          (entry): entry is [VitalName, number] => entry[1] !== undefined && withinBounds(entry[0], entry[1]),
        ),
      ) as Vitals;
      if (Object.keys(kept).length === 0) return false;
      // Samples that arrive together go out in one report.
      const pending = queued.find((report) => report.vitals && report.outcome === undefined && keyOf(report.release) === keyOf(release));
      if (pending) pending.vitals = { ...pending.vitals, ...kept };
      else queued.push({ release, vitals: kept });
      return true;
    },
    take() {
      const reports: HealthReport[] = [];
      for (const key of waiting) {
        const known = sessions.get(key)!;
        known.session.sent = true;
        reports.push({ ...reportOf(known.release), outcome: known.session.outcome });
      }
      for (const { release, outcome, vitals } of queued) {
        reports.push({ ...reportOf(release), ...(outcome && { outcome }), ...(vitals && { vitals }) });
      }
      waiting = [];
      queued = [];
      return reports;
    },
  };
}
