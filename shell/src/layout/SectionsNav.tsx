import { Icon, NavLink } from '@netnet/shared';
import { sections } from './sections';
import styles from './MemberHeader.module.scss';

/**
 * The sections in the header, from the desktop breakpoint up (below it the bottom bar has them):
 * the same "Main" navigation, drawn where a desktop member looks for it. Only one of the two is
 * ever displayed, so assistive technology meets one.
 */
export function SectionsNav() {
  return (
    <nav aria-label="Main" className={styles.sections}>
      {sections.map(({ to, label, icon }) => (
        <NavLink key={to} to={to}>
          {label === 'Search' && <Icon d={icon} />}
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
