import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { authAtom, Navigate, Outlet, href, useLocation, useNavigate } from '@netnet/shared';
import { forgetReturnTo, rememberReturnTo, returnTo, stopLeaving } from './returnTo';

/** Members-only screens: a visitor is sent to the landing page, and where they were going is remembered. */
export function MembersOnly() {
  const auth = useAtomValue(authAtom);
  const location = useLocation();
  const away = auth.status !== 'authenticated';
  const wanted = location.pathname + location.search;
  useEffect(() => {
    if (away) rememberReturnTo(wanted);
  }, [away, wanted]);
  if (away) return <Navigate to={href('landing')} replace />;
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

/** Unknown paths (docs/product.md#guards-and-redirects): members go to /browse, visitors to /. */
export function UnknownPath() {
  const auth = useAtomValue(authAtom);
  return <Navigate to={auth.status === 'authenticated' ? href('browse') : href('landing')} replace />;
}
