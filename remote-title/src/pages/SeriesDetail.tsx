import { AreaPlaceholder } from './AreaPlaceholder';

export default function SeriesDetail() {
  return <AreaPlaceholder heading="Series" />;
}
