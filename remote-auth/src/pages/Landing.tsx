import { AreaPlaceholder } from './AreaPlaceholder';

export default function Landing() {
  return <AreaPlaceholder heading="Unlimited movies, TV shows, and more." />;
}
