import styles from './BootError.module.scss';

/** Shown when the shell itself cannot start (no config, malformed remote map): never a white screen. */
export function BootError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : 'An unknown error occurred.';
  return (
    <main className={styles.page}>
      <h1>Netnet can’t start right now</h1>
      <p>{detail}</p>
      <p>Please try again in a moment.</p>
      <button type="button" className={styles.reload} onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
