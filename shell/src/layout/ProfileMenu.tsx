import { useCallback, useEffect, useId, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { getAuthActions, href, useNavigate } from '@netnet/shared';
import defaultAvatar from '../assets/avatars/default.svg';
import { whenIdle } from '../boot/whenIdle';
import type { ProfileMenuListProps } from './ProfileMenuList';
import styles from './ProfileMenu.module.scss';

/** Which item takes focus when the menu opens: the last one when it is opened with ArrowUp. */
type Opened = false | 'first' | 'last';

// The open menu is a chunk of its own (./ProfileMenuList.tsx), fetched once the page is idle.
let loadedList: ComponentType<ProfileMenuListProps> | null = null;
let loadingList: Promise<ComponentType<ProfileMenuListProps>> | null = null;

/** The open menu's code, once; a failed download is tried again on the next call. */
export function loadProfileMenuList(): Promise<ComponentType<ProfileMenuListProps>> {
  loadingList ??= import(/* webpackChunkName: "profile-menu" */ './ProfileMenuList').then(
    (module) => (loadedList = module.ProfileMenuList),
    (error: unknown) => {
      loadingList = null;
      throw error;
    },
  );
  return loadingList;
}

/**
 * The avatar's menu, with the WAI-ARIA menu button keyboard pattern: Enter, Space or ArrowDown
 * open it on the first item and ArrowUp on the last; the arrows move and wrap, Home and End jump,
 * a letter moves to the next item starting with it; Escape closes it and focus returns to the
 * button, Tab closes it and moves on.
 */
export function ProfileMenu() {
  const [open, setOpen] = useState<Opened>(false);
  const [List, setList] = useState(() => loadedList);
  const [signOutFailed, setSignOutFailed] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();

  // Fetched while the page is idle, or at once when the member opens the menu before that.
  useEffect(() => {
    if (List) return;
    let current = true;
    const load = () =>
      void loadProfileMenuList().then(
        (loaded) => current && setList(() => loaded),
        () => {},
      );
    if (open) load();
    else whenIdle(load);
    return () => {
      current = false;
    };
  }, [List, open]);

  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  const dismiss = useCallback(() => setOpen(false), []);

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Escape' && open) {
      close();
    }
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
      {open && List && <List id={menuId} focus={open} root={root} close={close} dismiss={dismiss} signOut={() => void signOut()} />}
      {signOutFailed && (
        <p role="alert" className={styles.error}>
          Signing out failed. Please try again.
        </p>
      )}
    </div>
  );
}
