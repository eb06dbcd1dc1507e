import { AreaPlaceholder } from './AreaPlaceholder';

export default function MovieDetail() {
  return <AreaPlaceholder heading="Movie" />;
}
