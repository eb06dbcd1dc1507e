import { useEffect } from 'react';
import { showPageNotice, useLocation, useNavigate } from '@netnet/shared';
import type { GuardState } from '../auth/guards';

/** Worded as a missing title's notice is (remote-title's TitleRoute). */
export const MISSING_PAGE = 'We couldn’t find that page. Here’s what’s on instead.';

/**
 * A member sent home from a path that is no page (the guard's or the server's `missing`) is told
 * so, once. It lives in the members' frame, so a visitor's first page carries none of it.
 */
export function MissingPageNotice() {
  const { pathname, search, state } = useLocation();
  const navigate = useNavigate();
  const missing = (state as GuardState | null)?.missing === true;
  useEffect(() => {
    if (!missing) return;
    showPageNotice(MISSING_PAGE);
    // Said once: the history entry forgets it, so a reload or a return to it says nothing more.
    navigate(pathname + search, { replace: true });
  }, [missing, navigate, pathname, search]);
  return null;
}
