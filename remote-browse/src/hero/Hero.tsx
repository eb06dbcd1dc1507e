import { catalogue, useCatalogue, type MediaType } from '@netnet/shared';
import { FeaturedTitle } from './FeaturedTitle';
import { HeroPlaceholder } from './HeroPlaceholder';

/** The most popular title of a type (results[0] of {type}/popular) as the screen's hero. */
export function Hero({ type }: { type: MediaType }) {
  const popular = useCatalogue(catalogue.popular(type));
  const what = type === 'movie' ? 'featured movie' : 'featured series';

  if (popular.status === 'loading') return <HeroPlaceholder what={what} />;
  const featured = popular.status === 'fetched' ? popular.data.results[0] : undefined;
  if (!featured) return <HeroPlaceholder what={what} onRetry={popular.retry} />;
  return <FeaturedTitle title={featured} type={type} />;
}
