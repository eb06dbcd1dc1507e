import { Link } from '../router';
import { imageUrl } from '../catalogue/images';

interface PosterProps {
  /** The catalogue's poster_path (null when the title has none). */
  path: string | null;
  name: string;
  /** Where the poster leads (a detail route); omit for a plain image. */
  to?: string;
  /** Posters on screen from the start load eagerly; the rest lazily, and after everything else. */
  eager?: boolean;
  /** -1 for every poster of a row but the one its Tab stop is on (roving focus). */
  tabIndex?: number;
}

/** A 96×144 poster, requested at w185 (2× for sharp phones) rather than `original`. */
export function Poster({ path, name, to, eager = false, tabIndex }: PosterProps) {
  const src = imageUrl(path, 'w185');
  const picture = src ? (
    <img
      className="nn-poster-image"
      src={src}
      alt={name}
      width={96}
      height={144}
      loading={eager ? 'eager' : 'lazy'}
      // A lazy poster near the screen still loads while the page starts: it waits behind the
      // page's own code and its first paint.
      fetchPriority={eager ? 'auto' : 'low'}
      decoding="async"
    />
  ) : (
    <span className="nn-poster-missing" role="img" aria-label={name}>
      {name}
    </span>
  );
  return to ? (
    <Link className="nn-poster" to={to} title={name} tabIndex={tabIndex}>
      {picture}
    </Link>
  ) : (
    <span className="nn-poster">{picture}</span>
  );
}
