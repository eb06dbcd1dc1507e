import { AreaPlaceholder } from './AreaPlaceholder';

export default function ComingSoon() {
  return <AreaPlaceholder heading="Coming soon" />;
}
