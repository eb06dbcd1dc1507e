import { useId, useState } from 'react';
import { type ImageSize, imageUrl, Link, titleHref } from '@netnet/shared';
import type { SearchHit } from './results';
import styles from './ResultCard.module.scss';

const KIND = { movie: 'Movie', tv: 'Series' } as const;
const BACKDROP_WIDTHS = ['w342', 'w500', 'w780'] as const satisfies readonly ImageSize[];

/** How a result's image loads: on screen as the page opens (`first` of them with priority) or lazily. */
export type ImageLoading = 'first' | 'eager' | 'lazy';

/**
 * One result: its backdrop, leading to the title's page for its type. The artwork carries the
 * title's name, so the name shows once: in the picture, and in words only when there is no picture.
 */
export function ResultCard({ hit, loading = 'lazy' }: { hit: SearchHit; loading?: ImageLoading }) {
  const metaId = useId();
  const [imageFailed, setImageFailed] = useState(false);
  const meta = [KIND[hit.type], hit.year].filter(Boolean).join(' · ');
  return (
    <Link className={styles.card} to={titleHref(hit.type, hit.id)} aria-describedby={metaId}>
      <img
        className={styles.image}
        // Tiles are about 170px wide on a phone and 230px on a desktop: sharp at 2x without `original`.
        src={imageUrl(hit.backdrop, 'w500') ?? undefined}
        srcSet={BACKDROP_WIDTHS.map((size) => `${imageUrl(hit.backdrop, size)} ${size.slice(1)}w`).join(', ')}
        sizes="(min-width: 48rem) 16rem, 50vw"
        alt={hit.name}
        width={500}
        height={281}
        loading={loading === 'lazy' ? 'lazy' : 'eager'}
        fetchPriority={loading === 'first' ? 'high' : loading === 'lazy' ? 'low' : 'auto'}
        decoding="async"
        onError={() => setImageFailed(true)}
      />
      {/* The image's alt names the link; without the picture the name is written out for everyone. */}
      {imageFailed && (
        <span className={styles.name} aria-hidden="true">
          {hit.name}
        </span>
      )}
      <span id={metaId} className={styles.meta} aria-hidden="true">
        {meta}
      </span>
    </Link>
  );
}
