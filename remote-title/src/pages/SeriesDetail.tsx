import { prefetchTitle, TitleRoute } from './TitleRoute';

/** /tv/:id (exposed to the shell as './SeriesDetail'). */
export default function SeriesDetail() {
  return <TitleRoute type="tv" />;
}

export const prefetch = ({ id }: { id?: string }) => prefetchTitle('tv', id);
