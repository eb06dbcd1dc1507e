import { useAtomValue } from 'jotai';
import { authAtom, Navigate, Outlet, href, useLocation } from '@netnet/shared';

interface FromState {
  from?: string;
}

/** Members-only screens: a visitor is sent to the landing page, remembering where they were going. */
export function MembersOnly() {
  const auth = useAtomValue(authAtom);
  const location = useLocation();
  if (auth.status !== 'authenticated') {
    const from = location.pathname + location.search;
    return <Navigate to={href('landing')} replace state={{ from } satisfies FromState} />;
  }
  return <Outlet />;
}

/** Public screens (/ and /login): a member is sent on to where they were going, or /browse. */
export function VisitorsOnly() {
  const auth = useAtomValue(authAtom);
  const location = useLocation();
  if (auth.status === 'authenticated') {
    const from = (location.state as FromState | null)?.from;
    return <Navigate to={from && from.startsWith('/') && !from.startsWith('//') ? from : href('browse')} replace />;
  }
  return <Outlet />;
}

/** Unknown paths (docs/product.md#guards-and-redirects): members go to /browse, visitors to /. */
export function UnknownPath() {
  const auth = useAtomValue(authAtom);
  return <Navigate to={auth.status === 'authenticated' ? href('browse') : href('landing')} replace />;
}
