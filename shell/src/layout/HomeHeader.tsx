import { NavLink, href } from '@netnet/shared';
import { Logo } from './Logo';
import { ProfileMenu } from './ProfileMenu';
import { SectionsNav } from './SectionsNav';
import styles from './Header.module.scss';
import member from './MemberHeader.module.scss';

/** The header of /browse, /movies and /series: logo, the sections (desktop), top navigation, profile menu. */
export function HomeHeader() {
  return (
    <header className={styles.header}>
      <Logo />
      <SectionsNav />
      <nav aria-label="Catalogue" className={member.topNav}>
        <NavLink to={href('series')}>Series</NavLink>
        <NavLink to={href('movies')}>Movies</NavLink>
        <NavLink to={href('myList')}>My list</NavLink>
      </nav>
      <ProfileMenu />
    </header>
  );
}
