import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Icon, icons } from '@netnet/shared';
import { openSharePopup } from './openSharePopup';
import { ShareError, shareMessage, SHARE_NETWORKS, type ShareNetwork } from './shareLinks';
import { NetworkIcon } from './NetworkIcon';
import { useFocusTrap } from './useFocusTrap';
import styles from './ShareOverlay.module.scss';

interface ShareOverlayProps {
  /** The title's display name (a series' name). */
  title: string;
  url: string;
  onClose(): void;
}

const BLOCKED = 'Your browser blocked the share window. Allow pop-ups for Netnet and try again.';

/** Full-screen 'Share to ...' sheet (docs/product.md#share-overlay): a network opens its share popup; either way it closes. */
export function ShareOverlay({ title, url, onClose }: ShareOverlayProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  useFocusTrap(dialog, onClose);

  // The page behind a full-screen sheet must not scroll under the member's finger.
  useEffect(() => {
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  const share = (network: ShareNetwork) => {
    try {
      if (!openSharePopup(network, url, shareMessage(title))) return setProblem(BLOCKED);
      onClose();
    } catch (error) {
      if (!(error instanceof ShareError)) throw error;
      console.error('Netnet: nothing to share', error);
      setProblem(error.message);
    }
  };

  return createPortal(
    <div className={styles.layer}>
      <div ref={dialog} className={styles.sheet} role="dialog" aria-modal="true" aria-labelledby={headingId}>
        <button type="button" className={styles.close} aria-label="Close" onClick={onClose}>
          <Icon d={icons.close} line />
        </button>
        <h2 id={headingId} className={styles.heading}>
          Share to ...
        </h2>
        <ul className={styles.networks}>
          {SHARE_NETWORKS.map(({ id, label }, index) => (
            <li key={id} className={styles.network} style={{ animationDelay: `${120 + index * 70}ms` }}>
              <button type="button" className={styles.networkButton} onClick={() => share(id)}>
                <NetworkIcon network={id} />
                {label}
              </button>
            </li>
          ))}
        </ul>
        {problem && (
          <p role="alert" className={styles.problem}>
            {problem}
          </p>
        )}
      </div>
    </div>,
    document.body,
  );
}
