import { useState } from 'react';
import { catalogue, imageUrl, Skeleton, titleName, useCatalogue } from '@netnet/shared';
import styles from './FeaturedHero.module.scss';

/** The landing page always features the same title (docs/product.md#landing-page). */
export const FEATURED_TITLE_ID = 604;

/** The featured title's backdrop and name, or a placeholder while it loads or if it cannot. */
export function FeaturedBackdrop() {
  const featured = useCatalogue(catalogue.details('movie', FEATURED_TITLE_ID));
  const [imageFailed, setImageFailed] = useState(false);

  if (featured.status === 'loading') return <BackdropPlaceholder loading />;
  if (featured.status === 'error') return <BackdropPlaceholder />;

  const name = titleName(featured.data);
  const path = featured.data.backdrop_path;
  const small = imageUrl(path, 'w780');
  const large = imageUrl(path, 'w1280');
  return (
    <figure className={styles.backdrop}>
      {large && small && !imageFailed ? (
        // The caption names the title, so the picture itself is decoration.
        <img
          className={styles.image}
          src={large}
          srcSet={`${small} 780w, ${large} 1280w`}
          sizes="100vw"
          alt=""
          onError={() => setImageFailed(true)}
        />
      ) : (
        <div className={styles.placeholder} />
      )}
      {name && (
        <figcaption className={styles.caption}>
          Featured: <strong>{name}</strong>
        </figcaption>
      )}
    </figure>
  );
}

export function BackdropPlaceholder({ loading = false }: { loading?: boolean }) {
  return (
    <div className={styles.backdrop} aria-busy={loading || undefined}>
      <div className={`${styles.placeholder} ${loading ? styles.loading : ''}`} />
      {loading && (
        <div className={styles.caption}>
          <Skeleton width="12rem" height="1rem" />
        </div>
      )}
    </div>
  );
}
