import { seriesRows } from '../rows/rowSets';
import { CatalogueScreen } from './CatalogueScreen';

export default function Series() {
  return <CatalogueScreen type="tv" heading="Series" rows={seriesRows} />;
}
