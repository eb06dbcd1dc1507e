import { catalogue, useCatalogue, type MediaType } from '@netnet/shared';
import styles from './Hero.module.scss';

interface GenreNamesProps {
  /** The genre list of this type names the ids: series genres differ from movie genres. */
  type: MediaType;
  ids: readonly number[];
}

/** The title's genre names joined by a bullet; nothing while the list loads or if it fails (docs/product.md#hero-block). */
export function GenreNames({ type, ids }: GenreNamesProps) {
  const genres = useCatalogue(catalogue.genres(type));
  if (genres.status !== 'fetched') return null;
  const names = ids
    .map((id) => genres.data.genres.find((genre) => genre.id === id)?.name)
    .filter((name): name is string => !!name);
  if (names.length === 0) return null;
  return <p className={styles.genres}>{names.join(' • ')}</p>;
}
