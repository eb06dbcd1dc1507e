import { MyListButton, type MediaType } from '@netnet/shared';
import { RateButton } from './RateButton';
import { ShareButton } from './ShareButton';
import styles from './TitleActions.module.scss';

interface TitleActionsProps {
  type: MediaType;
  id: number;
  name: string;
  poster: string | null;
}

/** My list, Rate and Share, side by side under the details. */
export function TitleActions({ type, id, name, poster }: TitleActionsProps) {
  return (
    <div className={styles.actions} role="group" aria-label="Title actions">
      <MyListButton id={id} type={type} name={name} poster={poster} />
      <RateButton type={type} id={id} />
      <ShareButton title={name} />
    </div>
  );
}
