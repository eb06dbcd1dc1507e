import { catalogue, useCatalogue, type MediaType } from '@netnet/shared';
import { castNames, directorNames } from './people';
import { PeopleLine } from './PeopleLine';
import styles from './Credits.module.scss';

/** The Cast and Director lines; nothing at all while loading or if the credits call fails (docs/product.md#cast-and-director). */
export function TitleCredits({ type, id }: { type: MediaType; id: number }) {
  const credits = useCatalogue(catalogue.credits(type, id));
  if (credits.status !== 'fetched') return null;
  const cast = castNames({ cast: credits.data.cast ?? [] });
  const directors = directorNames({ crew: credits.data.crew ?? [] });
  if (cast.length === 0 && directors.length === 0) return null;
  return (
    <div className={styles.credits}>
      <PeopleLine label="Cast" names={cast} />
      <PeopleLine label={directors.length > 1 ? 'Directors' : 'Director'} names={directors} />
    </div>
  );
}
