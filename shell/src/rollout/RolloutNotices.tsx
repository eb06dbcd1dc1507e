import { lazy, Suspense } from 'react';
import { useRolloutStatus, type RolloutStatus } from './rolloutStatus';

// Almost every page has nothing to tell: no ?debug, no pins, no dev server. The notices (the QA
// banner and the version footer, with their styles) are then never downloaded, which keeps them
// off the bytes a visitor's first page needs before it is interactive (docs/performance.md).
const NoticesShown = lazy(() => import(/* webpackChunkName: "rollout-notices" */ './NoticesShown'));

const hasAny = (record: object) => Object.keys(record).length > 0;

/** Whether this page has rollout information to show. */
export const hasNotices = ({ debug, overrides, refusedPins, devServers, askedDevPins }: RolloutStatus): boolean =>
  debug || hasAny(overrides) || hasAny(refusedPins) || hasAny(devServers) || askedDevPins !== '';

/** Rollout information for QA and support, shown over any page that has some. */
export function RolloutNotices() {
  if (!hasNotices(useRolloutStatus())) return null;
  return (
    <Suspense fallback={null}>
      <NoticesShown />
    </Suspense>
  );
}
