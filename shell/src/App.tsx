import { useAtomValue } from 'jotai';
import { authAtom, BrowserRouter, Navigate, Route, routes, Routes, Spinner } from '@netnet/shared';
import { MembersOnly, UnknownPath, VisitorsOnly } from './auth/guards';
import { RemotePage } from './federation/RemotePage';
import { MemberLayout } from './layout/MemberLayout';
import { PublicLayout } from './layout/PublicLayout';
import { memberPages, visitorPages, type PageEntry } from './pages';
import { RolloutNotices } from './rollout/RolloutNotices';

/** The route table (pages.ts): each page is a remote's, loaded at run time. */
export function AppRoutes() {
  const auth = useAtomValue(authAtom);
  if (auth.status === 'loading') return <Spinner centered label="Loading Netnet" />;

  return (
    <Routes>
      <Route element={<VisitorsOnly />}>
        <Route element={<PublicLayout />}>{visitorPages.map(pageRoute)}</Route>
      </Route>
      <Route element={<MembersOnly />}>
        <Route element={<MemberLayout />}>
          {memberPages.map(pageRoute)}
          <Route path="/comming-soon" element={<Navigate to={routes.comingSoon} replace />} />
        </Route>
      </Route>
      <Route path="*" element={<UnknownPath />} />
    </Routes>
  );
}

const pageRoute = ({ path, remote, page }: PageEntry) => (
  <Route key={path} path={path} element={<RemotePage remote={remote} page={page} />} />
);

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
      <RolloutNotices />
    </BrowserRouter>
  );
}
