import { AreaPlaceholder } from './AreaPlaceholder';

export default function Movies() {
  return <AreaPlaceholder heading="Movies" />;
}
