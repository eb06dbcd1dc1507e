import { Suspense, lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Spinner } from '@netnet/shared';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';
import { loadPage, pageKey } from './preload';
import type { RemoteName } from './remotes';

type Page = LazyExoticComponent<ComponentType>;

// One lazy component per page, so moving between pages doesn't reload them. React.lazy caches a
// failure forever, so a failed page is dropped from here and the next attempt makes a new one.
const pages = new Map<string, Page>();

function pageFor(key: string): Page {
  let page = pages.get(key);
  if (!page) {
    page = lazy(() => loadPage(key));
    pages.set(key, page);
  }
  return page;
}

interface RemotePageProps {
  remote: RemoteName;
  /** The exposed module, e.g. 'MovieDetail'. */
  page: string;
}

/** Renders one remote's page inside its own loading state and error boundary. */
export function RemotePage({ remote, page }: RemotePageProps) {
  const key = pageKey({ remote, page });
  const [attempt, setAttempt] = useState(0);
  const Page = pageFor(key);

  return (
    <RemoteErrorBoundary
      key={`${key}#${attempt}`}
      onError={() => pages.delete(key)}
      onRetry={() => setAttempt((n) => n + 1)}
    >
      <Suspense fallback={<Spinner label="Loading this part of Netnet" />}>
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
