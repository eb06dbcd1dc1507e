// What the first view does not need, in chunks of their own: one remote's page (with its hour
// chart), the audit trail and the change dialog. The first load carries the frame and every
// remote's overview only; these follow once the page is idle, so they are at hand by the time a
// person clicks.
import { lazy } from 'react';

const remotePage = () => import(/* webpackChunkName: "remote-page" */ './RemotePage');
const auditPage = () => import(/* webpackChunkName: "audit-page" */ './AuditPage');
const changeDialog = () => import(/* webpackChunkName: "change-dialog" */ './ChangeDialog');

export const RemotePage = lazy(() => remotePage().then((module) => ({ default: module.RemotePage })));
export const AuditPage = lazy(() => auditPage().then((module) => ({ default: module.AuditPage })));
export const ChangeDialog = lazy(() => changeDialog().then((module) => ({ default: module.ChangeDialog })));

/** Fetches the later views' chunks once the browser is idle after the first view. */
export function loadLaterViews() {
  const load = () => {
    for (const chunk of [remotePage, changeDialog, auditPage]) chunk().catch(() => {});
  };
  if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: 3_000 });
  else setTimeout(load, 1_000);
}
