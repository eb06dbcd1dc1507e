import { Link } from '../router';
import { imageUrl } from '../catalogue/images';
import styles from './Poster.module.scss';

interface PosterProps {
  /** The catalogue's poster_path (null when the title has none). */
  path: string | null;
  name: string;
  /** Where the poster leads (a detail route); omit for a plain image. */
  to?: string;
  /** Above-the-fold posters load eagerly; the rest lazily. */
  eager?: boolean;
}

/** A 96×144 poster, requested at w185 (2× for sharp phones) rather than `original`. */
export function Poster({ path, name, to, eager = false }: PosterProps) {
  const src = imageUrl(path, 'w185');
  const picture = src ? (
    <img
      className={styles.image}
      src={src}
      alt={name}
      width={96}
      height={144}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  ) : (
    <span className={styles.missing} role="img" aria-label={name}>
      {name}
    </span>
  );
  return to ? (
    <Link className={styles.poster} to={to} title={name}>
      {picture}
    </Link>
  ) : (
    <span className={styles.poster}>{picture}</span>
  );
}
