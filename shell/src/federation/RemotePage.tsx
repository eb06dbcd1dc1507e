import { Suspense, lazy, useContext, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { ErrorBoundary, LoadError } from '@netnet/shared';
import { PageLoading } from '../layout/PageLoading';
import { reportAreaError } from './areaErrors';
import { FallBackOnFileError } from './FallBackOnFileError';
import { federationName } from './remotes';
import { forgetPage, forgetRemote, loadPage, pageKey } from './preload';
import { LeftToBrowser, RenderedPageContext } from './renderedPage';
import type { RemoteName } from './remotes';
import styles from './RemotePage.module.scss';

type Page = LazyExoticComponent<ComponentType>;


// One lazy component per page, so moving between pages doesn't reload them. React.lazy caches a
// failure forever, so a failed page is dropped from here and the next attempt makes a new one.
const pages = new Map<string, Page>();
// Pages whose code could not be had: what the boundary then catches is a failed load (the release
// is unavailable), not the page throwing while it rendered.
const failedLoads = new Set<string>();

function pageFor(key: string): Page {
  let page = pages.get(key);
  if (!page) {
    page = lazy(() => {
      const load = loadPage(key);
      void load.catch(() => failedLoads.add(key));
      return load;
    });
    pages.set(key, page);
  }
  return page;
}

interface RemotePageProps {
  remote: RemoteName;
  /** The exposed module, e.g. 'MovieDetail'. */
  module: string;
}

/**
 * Renders one remote's page inside its own loading state and error boundary, so a failing remote
 * stays inside its area: the header, navigation and other areas carry on.
 */
export function RemotePage({ remote, module }: RemotePageProps) {
  const key = pageKey({ remote, module });
  const [attempt, setAttempt] = useState(0);
  const rendered = useContext(RenderedPageContext);
  const Page = rendered?.key === key ? (rendered.Page ?? LeftToBrowser) : pageFor(key);

  const fallback = (
    <LoadError
      className={styles.fallback}
      message="This part of Netnet is unavailable right now"
      detail="The rest of Netnet still works. You can try again in a moment."
      onRetry={() => setAttempt((n) => n + 1)}
      alert
    />
  );
  const onError = (error: unknown) => {
    reportAreaError(remote, error, { loading: failedLoads.delete(key) });
    console.warn('[netnet] an area failed to render:', error instanceof Error ? error.message : error);
    pages.delete(key);
    forgetPage(key);
  };

  // The remote now points at stable (a canary's file failed after its entry): its pages load anew.
  const onFallBack = () => {
    forgetRemote(remote);
    for (const known of pages.keys()) if (known.startsWith(`${federationName(remote)}/`)) pages.delete(known);
    setAttempt((n) => n + 1);
  };

  return (
    // A new key on Retry mounts a new boundary around the new lazy page.
    <ErrorBoundary key={`${key}#${attempt}`} fallback={fallback} onError={onError}>
      <FallBackOnFileError remote={remote} onFallBack={onFallBack}>
        <Suspense fallback={<PageLoading label="Loading this part of Netnet" />}>
          <Page />
        </Suspense>
      </FallBackOnFileError>
    </ErrorBoundary>
  );
}
