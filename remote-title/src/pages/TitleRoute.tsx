import { useEffect } from 'react';
import {
  catalogue,
  fetchCatalogue,
  type MediaType,
  Navigate,
  href,
  showPageNotice,
  useCatalogue,
  useNavigationType,
  useParams,
} from '@netnet/shared';
import { parseTitleId } from '@netnet/shared/ids';
import { TitleSkeleton } from '../title/TitleSkeleton';
import { TitleView } from '../title/TitleView';

/**
 * /title/:id and /tv/:id (docs/product.md#guards-and-redirects). A malformed id (nothing fetched)
 * or an unknown title leads to /browse saying the title could not be found; details that fail, to
 * /browse saying so — never a blank page, never a silent change of page.
 */
export function TitleRoute({ type }: { type: MediaType }) {
  const id = parseTitleId(useParams().id);
  if (id === null) return <LeaveForHome notice={MISSING_TITLE} />;
  // A new key per title: moving to a similar title starts its page afresh (trailer, toggles, 'more').
  return <TitleDetailsLoader key={`${type}-${id}`} type={type} id={id} />;
}

function TitleDetailsLoader({ type, id }: { type: MediaType; id: number }) {
  const details = useCatalogue(catalogue.details(type, id));
  const navigation = useNavigationType();

  useEffect(() => {
    // Opening another title starts at its top; Back keeps the browser's own scroll restoration.
    if (navigation === 'PUSH') window.scrollTo?.({ top: 0 });
  }, [navigation]);

  if (details.status === 'loading') return <TitleSkeleton />;
  if (details.status === 'error' || !details.data?.id) {
    if (details.status === 'error') console.warn(`Netnet: no details for ${type} ${id}`, details.error.message);
    const failed = details.status === 'error' && details.error.status !== 404;
    return <LeaveForHome notice={failed ? TITLE_FAILED : MISSING_TITLE} />;
  }
  return <TitleView type={type} details={details.data} />;
}

/** A title that cannot be shown: home, saying why, rather than a page that silently changed. */
function LeaveForHome({ notice }: { notice: string }) {
  useEffect(() => showPageNotice(notice), [notice]);
  return <Navigate to={href('browse')} replace />;
}

export const MISSING_TITLE = 'We couldn’t find that title. Here’s what’s on instead.';
export const TITLE_FAILED = 'That title couldn’t be loaded right now. Please try again in a moment.';

/** Warms the catalogue for a title about to be opened (the shell calls a page's `prefetch` on intent). */
export function prefetchTitle(type: MediaType, idParam: string | undefined): void {
  const id = parseTitleId(idParam);
  if (id !== null) fetchCatalogue(catalogue.details(type, id)).catch(() => {});
}
