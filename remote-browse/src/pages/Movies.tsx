import { movieRows } from '../rows/rowSets';
import { CatalogueScreen } from './CatalogueScreen';

export default function Movies() {
  return <CatalogueScreen type="movie" heading="Movies" rows={movieRows} />;
}
