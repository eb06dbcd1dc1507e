import { Icon, icons, NavLink, href } from '@netnet/shared';
import { shellIcons } from './icons';
import styles from './BottomNav.module.scss';

const entries = [
  { to: href('browse'), label: 'Home', icon: shellIcons.home },
  { to: href('comingSoon'), label: 'Coming soon', icon: shellIcons.comingSoon },
  { to: href('search'), label: 'Search', icon: icons.search },
  { to: href('downloads'), label: 'Downloads', icon: icons.download },
];

/** The members' bottom navigation; NavLink marks the active entry with aria-current="page". */
export function BottomNav() {
  return (
    <nav aria-label="Main" className={styles.nav}>
      {entries.map(({ to, label, icon }) => (
        <NavLink key={to} to={to} className={styles.link}>
          <Icon d={icon} />
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
