import { AreaPlaceholder } from './AreaPlaceholder';

export default function Browse() {
  return <AreaPlaceholder heading="Home" />;
}
