import { useAtomValue } from 'jotai';
import { authAtom, BrowserRouter, Navigate, redirects, Route, Routes } from '@netnet/shared';
import { MembersOnly, UnknownPath, VisitorsOnly } from './auth/guards';
import { RemotePage } from './federation/RemotePage';
import { MemberFrame } from './layout/memberFrame';
import { PageLoading } from './layout/PageLoading';
import { PublicLayout } from './layout/PublicLayout';
import { memberPages, visitorPages, type PageEntry } from './pages';
import { RolloutNotices } from './rollout/RolloutNotices';

/** The page table (shared's pages.ts, split by audience in ./pages): each page is a remote's, loaded at run time. */
export function AppRoutes() {
  const auth = useAtomValue(authAtom);
  if (auth.status === 'loading') return <PageLoading label="Loading Netnet" />;

  return (
    <Routes>
      <Route element={<VisitorsOnly />}>
        <Route element={<PublicLayout />}>{visitorPages.map(pageRoute)}</Route>
      </Route>
      <Route element={<MembersOnly />}>
        <Route element={<MemberFrame />}>
          {memberPages.map(pageRoute)}
          {Object.entries(redirects).map(([from, to]) => (
            <Route key={from} path={from} element={<Navigate to={to} replace />} />
          ))}
        </Route>
      </Route>
      <Route path="*" element={<UnknownPath />} />
    </Routes>
  );
}

const pageRoute = ({ path, remote, module }: PageEntry) => (
  <Route key={path} path={path} element={<RemotePage remote={remote} module={module} />} />
);

/** The whole site inside a router: the browser's (App) or, on the server, one request's. */
export function Site() {
  return (
    <>
      <AppRoutes />
      <RolloutNotices />
    </>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Site />
    </BrowserRouter>
  );
}
