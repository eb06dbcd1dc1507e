import { useAtomValue } from 'jotai';
import { authAtom, BrowserRouter, Navigate, Route, routes, Routes, Spinner } from '@netnet/shared';
import { MembersOnly, UnknownPath, VisitorsOnly } from './auth/guards';
import { RemotePage } from './federation/RemotePage';
import { MemberLayout } from './layout/MemberLayout';
import { PublicLayout } from './layout/PublicLayout';
import { RolloutNotices } from './rollout/RolloutNotices';

/** The route table (SPEC §2 with DESIGN §8). Each page is a remote's, loaded at run time. */
export function AppRoutes() {
  const auth = useAtomValue(authAtom);
  if (auth.status === 'loading') return <Spinner centered label="Loading Netnet" />;

  return (
    <Routes>
      <Route element={<VisitorsOnly />}>
        <Route element={<PublicLayout />}>
          <Route path={routes.landing} element={<RemotePage remote="remote-auth" page="Landing" />} />
          <Route path="/login" element={<RemotePage remote="remote-auth" page="Login" />} />
        </Route>
      </Route>
      <Route element={<MembersOnly />}>
        <Route element={<MemberLayout />}>
          <Route path={routes.browse} element={<RemotePage remote="remote-browse" page="Browse" />} />
          <Route path={routes.movies} element={<RemotePage remote="remote-browse" page="Movies" />} />
          <Route path={routes.series} element={<RemotePage remote="remote-browse" page="Series" />} />
          <Route path={routes.myList} element={<RemotePage remote="remote-browse" page="MyList" />} />
          <Route path={routes.comingSoon} element={<RemotePage remote="remote-browse" page="ComingSoon" />} />
          <Route path="/comming-soon" element={<Navigate to={routes.comingSoon} replace />} />
          <Route path={routes.downloads} element={<RemotePage remote="remote-browse" page="Downloads" />} />
          <Route path="/search" element={<RemotePage remote="remote-search" page="Search" />} />
          <Route path="/title/:id" element={<RemotePage remote="remote-title" page="MovieDetail" />} />
          <Route path="/tv/:id" element={<RemotePage remote="remote-title" page="SeriesDetail" />} />
        </Route>
      </Route>
      <Route path="*" element={<UnknownPath />} />
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
      <RolloutNotices />
    </BrowserRouter>
  );
}
