import { useEffect, useId, useRef, useState } from 'react';
import { getAuthActions, routes, useNavigate } from '@netnet/shared';
import defaultAvatar from '../assets/avatars/default.svg';
import anaAvatar from '../assets/avatars/ana.svg';
import benAvatar from '../assets/avatars/ben.svg';
import kidsAvatar from '../assets/avatars/kids.svg';
import styles from './ProfileMenu.module.scss';

// Profiles are cosmetic (SPEC §2): three fixed entries and one default avatar on the button.
const profiles = [
  { name: 'Ana', avatar: anaAvatar },
  { name: 'Ben', avatar: benAvatar },
  { name: 'Kids', avatar: kidsAvatar },
];

export function ProfileMenu() {
  const [open, setOpen] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const signOut = async () => {
    setOpen(false);
    try {
      await getAuthActions().signOut();
      navigate(routes.landing, { replace: true });
    } catch {
      // Logged where it happened (SPEC §8); the member still deserves to know.
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
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <img src={defaultAvatar} alt="" width={32} height={32} />
      </button>
      {open && (
        <ul id={menuId} role="menu" aria-label="Profiles" className={styles.menu}>
          {profiles.map((profile) => (
            <li key={profile.name} role="none">
              <button type="button" role="menuitem" className={styles.item} onClick={() => setOpen(false)}>
                <img src={profile.avatar} alt="" width={32} height={32} />
                {profile.name}
              </button>
            </li>
          ))}
          <li role="none" className={styles.separator}>
            <button type="button" role="menuitem" className={styles.item} onClick={signOut}>
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
