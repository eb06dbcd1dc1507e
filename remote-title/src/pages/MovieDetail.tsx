import { prefetchTitle, TitleRoute } from './TitleRoute';

/** /title/:id (exposed to the shell as './MovieDetail'). */
export default function MovieDetail() {
  return <TitleRoute type="movie" />;
}

export const prefetch = ({ id }: { id?: string }) => prefetchTitle('movie', id);
