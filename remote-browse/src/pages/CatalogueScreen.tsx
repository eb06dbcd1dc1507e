import { usePageTitle, type MediaType } from '@netnet/shared';
import type { RowDefinition } from '../rows/rowSets';
import { Hero } from '../hero/Hero';
import { RowStack } from '../rows/RowStack';

interface CatalogueScreenProps {
  type: MediaType;
  heading: string;
  rows: readonly RowDefinition[];
}

/** /movies and /series: the most popular title of the type as hero, then the type's genre rows. */
export function CatalogueScreen({ type, heading, rows }: CatalogueScreenProps) {
  usePageTitle(heading);
  return (
    <>
      <h1 className="nn-visually-hidden">{heading}</h1>
      <Hero type={type} />
      <RowStack rows={rows} />
    </>
  );
}
