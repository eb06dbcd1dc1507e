import { AreaPlaceholder } from './AreaPlaceholder';

export default function Login() {
  return <AreaPlaceholder heading="Sign In" />;
}
