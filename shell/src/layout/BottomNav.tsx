import { NavLink, routes } from '@netnet/shared';
import { ComingSoonIcon, DownloadsIcon, HomeIcon, SearchIcon } from './icons';
import styles from './BottomNav.module.scss';

const entries = [
  { to: routes.browse, label: 'Home', Icon: HomeIcon },
  { to: routes.comingSoon, label: 'Coming soon', Icon: ComingSoonIcon },
  { to: routes.search(), label: 'Search', Icon: SearchIcon },
  { to: routes.downloads, label: 'Downloads', Icon: DownloadsIcon },
];

/** The members' bottom navigation; NavLink marks the active entry with aria-current="page". */
export function BottomNav() {
  return (
    <nav aria-label="Main" className={styles.nav}>
      {entries.map(({ to, label, Icon }) => (
        <NavLink key={to} to={to} className={styles.link}>
          <Icon />
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
