// The router, one instance for the whole page. Every app reaches React Router through here
// instead of importing 'react-router': shared singletons are not tree-shaken, and sharing the
// package itself would ship all of React Router 7 (≈ 61 KB gzip) to every page; this subset
// is ≈ 14 KB. Need another router export? Add it here (and redeploy the shell first, like any
// change to `shared`).
export {
  BrowserRouter,
  Link,
  matchPath,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
} from 'react-router';
