import type { ShareNetwork } from './shareLinks';
import styles from './ShareOverlay.module.scss';

// Each network's colour and initial: recognisable at a glance without shipping brand artwork.
const LOOKS: Record<ShareNetwork, { colour: string; initial: string }> = {
  whatsapp: { colour: '#25d366', initial: 'W' },
  telegram: { colour: '#229ed9', initial: 'T' },
  line: { colour: '#06c755', initial: 'L' },
  linkedin: { colour: '#0a66c2', initial: 'in' },
  facebook: { colour: '#1877f2', initial: 'f' },
};

export function NetworkIcon({ network }: { network: ShareNetwork }) {
  const { colour, initial } = LOOKS[network];
  return (
    <span className={styles.icon} style={{ background: colour }} aria-hidden="true">
      {initial}
    </span>
  );
}
