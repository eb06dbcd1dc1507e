import { AreaPlaceholder } from './AreaPlaceholder';

export default function Series() {
  return <AreaPlaceholder heading="Series" />;
}
