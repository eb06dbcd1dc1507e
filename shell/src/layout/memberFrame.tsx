import { useEffect, useState, type ComponentType } from 'react';
import { LoadError } from '@netnet/shared';
import { PageLoading } from './PageLoading';

// Members' frame (the headers, the profile menu, the bottom navigation) is no part of a visitor's
// first page, so it is a chunk of its own: the landing page loads none of it (its JS budget,
// docs/performance.md). Whoever renders a member's page has it first: the server before every
// render (server/renderArea.tsx), the browser before it takes a member's page over (boot/boot.ts),
// so both render the same frame. A visitor's page fetches it once idle, so signing in shows it at once.

let loaded: ComponentType | null = null;
let loading: Promise<ComponentType> | null = null;

/** The frame's code, once; a failed download is tried again on the next call. */
export function loadMemberFrame(): Promise<ComponentType> {
  loading ??= import(/* webpackChunkName: "member-frame" */ './MemberLayout').then(
    (module) => (loaded = module.MemberLayout),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The members' frame around their pages; the loading page while its code arrives, Retry if it cannot. */
export function MemberFrame() {
  const [Frame, setFrame] = useState(() => loaded);
  const [failed, setFailed] = useState(false);

  // A frame that unmounts meanwhile ignores the answer (React drops a state change of an unmounted component).
  useEffect(() => {
    if (!Frame && !failed) loadMemberFrame().then((component) => setFrame(() => component), () => setFailed(true));
  }, [Frame, failed]);

  if (Frame) return <Frame />;
  if (failed) return <LoadError alert onRetry={() => setFailed(false)} />;
  return <PageLoading label="Loading Netnet" />;
}
