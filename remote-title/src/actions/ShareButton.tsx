import { useCallback, useState } from 'react';
import { ActionButton, Icon } from '@netnet/shared';
import { ShareOverlay } from '../share/ShareOverlay';
import { titleIcons } from './icons';

/** Opens the share overlay for this page; focus comes back here when it closes. */
export function ShareButton({ title }: { title: string }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <ActionButton label="Share" icon={<Icon d={titleIcons.share} line />} hasPopup="dialog" onClick={() => setOpen(true)} />
      {open && <ShareOverlay title={title} url={window.location.href} onClose={close} />}
    </>
  );
}
