import { Icon, useNavigate } from '@netnet/shared';
import { Logo } from './Logo';
import { ProfileMenu } from './ProfileMenu';
import { shellIcons } from './icons';
import styles from './Header.module.scss';

/** The header of every other member screen: a back button that goes back in history. */
export function BackHeader() {
  const navigate = useNavigate();
  return (
    <header className={styles.header}>
      <button type="button" className={styles.back} aria-label="Back" onClick={() => navigate(-1)}>
        <Icon d={shellIcons.back} />
      </button>
      <Logo />
      <span className={styles.spacer} />
      <ProfileMenu />
    </header>
  );
}
