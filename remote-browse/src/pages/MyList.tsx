import { AreaPlaceholder } from './AreaPlaceholder';

export default function MyList() {
  return <AreaPlaceholder heading="My list" />;
}
