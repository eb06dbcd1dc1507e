import styles from './Notice.module.scss';

/** A live region that is always in the page (so screen readers hear each message) and a toast while it has one. */
export function Notice({ message }: { message: string | null }) {
  return (
    <span role="status" className={message ? styles.notice : 'nn-visually-hidden'}>
      {message}
    </span>
  );
}
