import { Icon, NavLink } from '@netnet/shared';
import { sections } from './sections';
import styles from './BottomNav.module.scss';

/**
 * The members' bottom navigation, on phones only: from the desktop breakpoint up the header holds
 * the sections (SectionsNav). NavLink marks the active entry with aria-current="page".
 */
export function BottomNav() {
  return (
    <nav aria-label="Main" className={styles.nav}>
      {sections.map(({ to, label, icon }) => (
        <NavLink key={to} to={to} className={styles.link}>
          <Icon d={icon} />
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
