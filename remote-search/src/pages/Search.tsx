import { AreaPlaceholder } from './AreaPlaceholder';

export default function Search() {
  return <AreaPlaceholder heading="Search" />;
}
