import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { getAuthActions, href, useNavigate } from '@netnet/shared';
import defaultAvatar from '../assets/avatars/default.svg';
import anaAvatar from '../assets/avatars/ana.svg';
import benAvatar from '../assets/avatars/ben.svg';
import kidsAvatar from '../assets/avatars/kids.svg';
import styles from './ProfileMenu.module.scss';

// Profiles are cosmetic (docs/product.md): three fixed entries and one default avatar on the button.
const profiles = [
  { name: 'Ana', avatar: anaAvatar },
  { name: 'Ben', avatar: benAvatar },
  { name: 'Kids', avatar: kidsAvatar },
];

/** Which item takes focus when the menu opens: the last one when it is opened with ArrowUp. */
type Opened = false | 'first' | 'last';

/**
 * The avatar's menu, with the WAI-ARIA menu button keyboard pattern: Enter, Space or ArrowDown
 * open it on the first item and ArrowUp on the last; the arrows move and wrap, Home and End jump,
 * a letter moves to the next item starting with it; Escape closes it and focus returns to the
 * button, Tab closes it and moves on.
 */
export function ProfileMenu() {
  const [open, setOpen] = useState<Opened>(false);
  const [signOutFailed, setSignOutFailed] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    const all = items();
    all[open === 'first' ? 0 : all.length - 1]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Escape' && open) {
      close();
    }
  };

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

  const signOut = async () => {
    close();
    try {
      await getAuthActions().signOut();
      navigate(href('landing'), { replace: true });
    } catch {
      // Logged where it happened; the member still deserves to know (docs/product.md).
      setSignOutFailed(true);
    }
  };

  return (
    <div className={styles.root} ref={root}>
      <button
        ref={button}
        type="button"
        className={styles.avatarButton}
        aria-label="Profile menu"
        aria-haspopup="menu"
        aria-expanded={Boolean(open)}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => (value ? false : 'first'))}
        onKeyDown={onButtonKey}
      >
        <img src={defaultAvatar} alt="" width={32} height={32} />
      </button>
      {open && (
        <ul ref={menu} id={menuId} role="menu" aria-label="Profiles" className={styles.menu} onKeyDown={onMenuKey}>
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
      )}
      {signOutFailed && (
        <p role="alert" className={styles.error}>
          Signing out failed. Please try again.
        </p>
      )}
    </div>
  );
}
