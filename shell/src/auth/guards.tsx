import { useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { authAtom, Navigate, Outlet, href, useLocation, useNavigate } from '@netnet/shared';
import { forgetReturnTo, keepsReturnTo, rememberReturnTo, returnTo, stopLeaving } from './returnTo';

/**
 * What a guard's redirect tells the page it leads to (location state; a server render's too):
 * `from`, the members' link a visitor was sent away from, kept (the landing page says so);
 * `missing`, a member's path that is no page (the members' frame says so on /browse).
 */
export interface GuardState {
  from?: string;
  missing?: true;
}

const MISSING: GuardState = { missing: true };

/**
 * Members-only screens: a visitor is sent to the landing page, and where they were going is
 * remembered; the landing page is told (`state.from`, as a server render tells it) so it can say so.
 */
export function MembersOnly() {
  const auth = useAtomValue(authAtom);
  const location = useLocation();
  const away = auth.status !== 'authenticated';
  const wanted = location.pathname + location.search;
  // Worked out when the visitor is sent away (not while a member signs out), and one object per
  // path: Navigate navigates again whenever its state changes.
  const kept = useMemo((): GuardState | null => (away && keepsReturnTo(wanted) ? { from: wanted } : null), [away, wanted]);
  useEffect(() => {
    if (away) rememberReturnTo(wanted);
  }, [away, wanted]);
  if (away) return <Navigate to={href('landing')} replace state={kept} />;
  return <Outlet />;
}

/** Public screens (/ and /login): a member goes on to the page they were sent away from, or /browse. */
export function VisitorsOnly() {
  const auth = useAtomValue(authAtom);
  const signedIn = auth.status === 'authenticated';
  useEffect(() => {
    // A visitor's page is on screen: a sign-out that led here is over.
    if (!signedIn) stopLeaving();
  }, [signedIn]);
  if (signedIn) return <GoOn />;
  return <Outlet />;
}

/** The signed-in member's way on from a visitors' page: the remembered page, once, else home. */
function GoOn() {
  const navigate = useNavigate();
  const [to] = useState(() => returnTo() ?? href('browse'));
  useEffect(() => {
    forgetReturnTo();
    navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}

/** Unknown paths (docs/product.md#guards-and-redirects): members go to /browse, told why there; visitors to /. */
export function UnknownPath() {
  const member = useAtomValue(authAtom).status === 'authenticated';
  return <Navigate to={member ? href('browse') : href('landing')} replace state={member ? MISSING : null} />;
}
