import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import anaAvatar from '../assets/avatars/ana.svg';
import benAvatar from '../assets/avatars/ben.svg';
import kidsAvatar from '../assets/avatars/kids.svg';
import styles from './ProfileMenu.module.scss';

// The open profile menu: its own chunk, which a visitor's pages never load and a member's load
// once the page is idle (ProfileMenu.tsx), so its code is not on any first page's path.

// Profiles are cosmetic (docs/product.md): three fixed entries.
const profiles = [
  { name: 'Ana', avatar: anaAvatar },
  { name: 'Ben', avatar: benAvatar },
  { name: 'Kids', avatar: kidsAvatar },
];

export interface ProfileMenuListProps {
  id: string;
  /** Which item takes focus as it opens: the last one when it was opened with ArrowUp. */
  focus: 'first' | 'last';
  /** The menu and its button: a pointer down anywhere else closes it. */
  root: RefObject<HTMLDivElement | null>;
  /** Closes the menu, focus back on its button. */
  close(): void;
  /** Closes it where focus already went (a click elsewhere). */
  dismiss(): void;
  signOut(): void;
}

/** The menu's items, with the WAI-ARIA menu keyboard pattern (ProfileMenu.tsx has the button's part). */
export function ProfileMenuList({ id, focus, root, close, dismiss, signOut }: ProfileMenuListProps) {
  const menu = useRef<HTMLUListElement>(null);
  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    const all = items();
    all[focus === 'first' ? 0 : all.length - 1]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) dismiss();
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [focus, root, dismiss]);

  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const current = all.indexOf(document.activeElement as HTMLElement);
    const focusAt = (index: number) => all[(index + all.length) % all.length]?.focus();
    const key = event.key;
    // From the button, the browser's own Tab then moves on as if the menu had never opened.
    if (key === 'Tab') return close();
    if (key === 'ArrowDown') focusAt(current + 1);
    else if (key === 'ArrowUp') focusAt(current - 1);
    else if (key === 'Home') focusAt(0);
    else if (key === 'End') focusAt(all.length - 1);
    else if (key === 'Escape') close();
    else if (key.length === 1 && key !== ' ') {
      // Typeahead: the next item (after the current one, wrapping) whose name starts with the key.
      const starts = (index: number) => all[index % all.length]?.textContent?.trim().toLowerCase().startsWith(key.toLowerCase());
      const next = Array.from(all, (_, step) => current + 1 + step).find(starts);
      if (next === undefined) return;
      focusAt(next);
    } else return;
    event.preventDefault();
  };

  return (
    <ul ref={menu} id={id} role="menu" aria-label="Profiles" className={styles.menu} onKeyDown={onMenuKey}>
      {profiles.map((profile) => (
        <li key={profile.name} role="none">
          <button type="button" role="menuitem" tabIndex={-1} className={styles.item} onClick={close}>
            <img src={profile.avatar} alt="" width={32} height={32} />
            {profile.name}
          </button>
        </li>
      ))}
      <li role="none" className={styles.separator}>
        <button type="button" role="menuitem" tabIndex={-1} className={styles.item} onClick={signOut}>
          Sign out of Netnet
        </button>
      </li>
    </ul>
  );
}
