import { useCallback, useState } from 'react';
import { ShareOverlay } from '../share/ShareOverlay';
import { ActionIcon } from './ActionIcon';
import styles from './TitleActions.module.scss';

/** Opens the share overlay for this page; focus comes back here when it closes. */
export function ShareButton({ title }: { title: string }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button type="button" className={styles.action} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <ActionIcon name="share" />
        <span>Share</span>
      </button>
      {open && <ShareOverlay title={title} url={window.location.href} onClose={close} />}
    </>
  );
}
