import { TitleRoute } from './TitleRoute';

/** /tv/:id (exposed to the shell as './SeriesDetail'). */
export default function SeriesDetail() {
  return <TitleRoute type="tv" />;
}
