import { href, icons } from '@netnet/shared';
import { shellIcons } from './icons';

/** The members' sections: the bottom bar on a phone, the header's navigation from the desktop breakpoint up. */
export const sections = [
  { to: href('browse'), label: 'Home', icon: shellIcons.home },
  { to: href('comingSoon'), label: 'Coming soon', icon: shellIcons.comingSoon },
  { to: href('search'), label: 'Search', icon: icons.search },
  { to: href('downloads'), label: 'Downloads', icon: icons.download },
] as const;
