import { AreaPlaceholder } from './AreaPlaceholder';

export default function Downloads() {
  return <AreaPlaceholder heading="Downloads" />;
}
