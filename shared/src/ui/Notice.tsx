/** A live region that is always in the page (so screen readers hear each message) and a toast while it has one. */
export function Notice({ message }: { message: string | null }) {
  return (
    <span role="status" className={message ? 'nn-notice' : 'nn-visually-hidden'}>
      {message}
    </span>
  );
}
