import { href, Icon, useCanGoBack, useNavigate } from '@netnet/shared';
import { Logo } from './Logo';
import { ProfileMenu } from './ProfileMenu';
import { SectionsNav } from './SectionsNav';
import { shellIcons } from './icons';
import styles from './Header.module.scss';
import member from './MemberHeader.module.scss';

/** The header of every other member screen: Back goes back in history, or home when the page was opened directly. */
export function BackHeader() {
  const navigate = useNavigate();
  const canGoBack = useCanGoBack();
  return (
    <header className={styles.header}>
      <button
        type="button"
        className={member.back}
        aria-label="Back"
        onClick={() => (canGoBack() ? navigate(-1) : navigate(href('browse')))}
      >
        <Icon d={shellIcons.back} />
      </button>
      <Logo />
      <SectionsNav />
      <span className={styles.spacer} />
      <ProfileMenu />
    </header>
  );
}
