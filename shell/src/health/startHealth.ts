import { registerPlugins } from '@module-federation/enhanced/runtime';
import { whenIdle } from '../boot/whenIdle';
import { AREA_ERROR_EVENT, areaErrorsSoFar, type AreaError } from '../federation/areaErrors';
import type { RemoteName } from '../federation/remotes';
import type { CanaryFallback } from '../federation/rolloutPlugin';
import { getRolloutStatus, type RemoteStatus } from '../rollout/rolloutStatus';
import { attribute, releaseBase, scriptUrlsOf, type LoadedRelease } from './attribution';
import { deviceId } from '../rollout/identity';
import { canSend, requestTicket, sendReports } from './beacon';
import { createSessions, type Outcome, type ReleaseRef, type VitalName } from './reports';
import { startVitals } from './vitals';

// The browser's part of guarded rollouts (docs/release-health.md): per document,
// how each release it used did, and the page's web vitals, sent to the site's own server. It is
// loaded and started after the first page (boot.ts), so it reads what happened before from the
// rollout status and the areas' record, and listens from then on. Uncaught errors are the
// exception: the browser keeps no record of them, so only those from then on are counted.

// The guard decides on sessions minute by minute: an outcome goes out soon, once the page is idle.
const SETTLE_DELAY_MS = 2000;

interface HealthOptions {
  /** The remote whose page was the document's first: its LCP, and so the page's vitals, are its. */
  firstRemote: RemoteName;
  /** Asks the server for this page load's ticket (beacon.ts requestTicket): without one nothing is sent. */
  ticket?: () => Promise<string | undefined>;
}

/** Nothing here may reach the member: a failure of the reports only loses reports. */
const safely =
  <A extends unknown[]>(run: (...args: A) => void) =>
  (...args: A): void => {
    try {
      run(...args);
    } catch {
      // A report lost, nothing more.
    }
  };

/** Starts the reports for this document; returns the teardown (for tests: a page never stops them). */
export function startHealth({ firstRemote, ticket: askTicket = requestTicket }: HealthOptions): () => void {
  if (!canSend()) return () => {};
  // The ticket is bound to this browser's device cookie: a signed-in member's page may not have
  // needed it for bucketing, so it is made now if missing.
  safely(deviceId)();
  let ticket: string | undefined;
  const sessions = createSessions();
  // Every release this page has loaded, by folder: an uncaught error from its files is its failure.
  const loaded = new Map<string, LoadedRelease>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  // A developer's dev server (docs/releases.md, "Develop against the real site") is no release:
  // nothing about it is reported, so it never counts for or against one.
  const settle = (release: ReleaseRef, outcome: Outcome) =>
    release.channel !== 'dev' && sessions.settle({ remote: release.remote, version: release.version, channel: release.channel }, outcome);

  /** Reads the rollout status: fallbacks and loads so far. True when a new outcome is waiting. */
  const sync = (): boolean => {
    let news = false;
    for (const [remote, status] of Object.entries(getRolloutStatus().remotes) as [RemoteName, RemoteStatus | undefined][]) {
      if (!status) continue;
      const fellBack = status.fellBackFrom;
      if (fellBack && !fellBack.counted) news = settle({ remote, version: fellBack.version, channel: fellBack.channel }, 'fell-back') || news;
      if (status.state !== 'loaded') continue;
      const release = { remote, version: status.version, channel: status.channel };
      const base = releaseBase(status.entry);
      if (base) loaded.set(base, { ...release, base });
      news = settle(release, 'loaded') || news;
    }
    return news;
  };

  const flush = safely(() => {
    // Until the ticket is here, outcomes wait (without one they never go: nothing would count).
    if (stopped || ticket === undefined) return;
    sync();
    const reports = sessions.take();
    if (reports.length > 0) sendReports(reports, ticket);
  });

  /** Something new is waiting: it goes out shortly, or at once when the page is already hidden. */
  const changed = () => {
    if (document.visibilityState === 'hidden') {
      flush();
      return;
    }
    if (timer !== undefined) return;
    timer = setTimeout(
      () =>
        whenIdle(() => {
          timer = undefined;
          flush();
        }),
      SETTLE_DELAY_MS,
    );
  };

  /** An area that gave up: its release could not be had, or its page threw while rendering. */
  const areaFailed = ({ remote, phase, release }: AreaError) =>
    release !== null && settle({ remote, ...release }, phase === 'load' ? 'failed' : 'boundary-error');

  const onFallback = safely((event: Event) => {
    const detail = (event as CustomEvent<CanaryFallback | undefined>).detail;
    const fellBack = detail !== undefined && settle({ remote: detail.remote, ...detail.failed }, 'fell-back');
    if (sync() || fellBack) changed();
  });

  const onUncaught = safely((event: Event) => {
    sync();
    const release = attribute(scriptUrlsOf(event), [...loaded.values()]);
    if (release && settle(release, 'uncaught-error')) changed();
  });

  const onAreaErrorEvent = safely((event: Event) => {
    const detail = (event as CustomEvent<AreaError | undefined>).detail;
    // A stable that failed may follow a canary that fell back: both go out.
    const fellBack = sync();
    if ((detail !== undefined && areaFailed(detail)) || fellBack) changed();
  });

  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };

  void askTicket().then(
    (given) => {
      ticket = given;
      if (given !== undefined && !stopped) changed();
    },
    () => {},
  );

  // What happened before this module started: the first page's remote loading, falling back or failing.
  const before = sync();
  const failedBefore = areaErrorsSoFar().map(areaFailed).some(Boolean);
  if (before || failedBefore) changed();

  const listeners: [EventTarget, string, (event: Event) => void][] = [
    [window, 'netnet:canary-fallback', onFallback],
    [window, AREA_ERROR_EVENT, onAreaErrorEvent],
    [window, 'error', onUncaught],
    [window, 'unhandledrejection', onUncaught],
    [document, 'visibilitychange', onVisibility],
    [window, 'pagehide', flush],
  ];
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
  // Loads from here on (other pages, Retry) come through the federation runtime.
  safely(() =>
    registerPlugins([
      {
        name: 'netnet-health',
        afterLoadRemote: safely(() => {
          if (!stopped && sync()) changed();
        }),
      },
    ]),
  )();

  void startVitals(
    safely((name: VitalName, value: number) => {
      const status = getRolloutStatus().remotes[firstRemote];
      // A page that never showed its remote measured an error message, not the release.
      if (stopped || status?.state !== 'loaded' || status.channel === 'dev') return;
      if (sessions.addVitals({ remote: firstRemote, version: status.version, channel: status.channel }, { [name]: value })) changed();
    }),
  );

  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
  };
}
