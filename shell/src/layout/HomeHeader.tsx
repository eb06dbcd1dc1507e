import { NavLink, routes } from '@netnet/shared';
import { Logo } from './Logo';
import { ProfileMenu } from './ProfileMenu';
import styles from './Header.module.scss';

/** The header of /browse, /movies and /series: logo, top navigation, profile menu. */
export function HomeHeader() {
  return (
    <header className={styles.header}>
      <Logo />
      <nav aria-label="Catalogue" className={styles.topNav}>
        <NavLink to={routes.series}>Series</NavLink>
        <NavLink to={routes.movies}>Movies</NavLink>
        <NavLink to={routes.myList}>My list</NavLink>
      </nav>
      <ProfileMenu />
    </header>
  );
}
