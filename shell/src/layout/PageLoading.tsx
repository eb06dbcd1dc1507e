import { Spinner } from '@netnet/shared';

/**
 * A page on its way (its code, or the members' frame): Netnet's spinner in the middle of the screen
 * below the header, never tucked under it, and a level-one heading that says what is happening
 * (as a title page's skeleton has one), so the page is never without one.
 */
export function PageLoading({ label }: { label: string }) {
  return (
    <>
      <h1 className="nn-visually-hidden">{label}</h1>
      <Spinner centered label={label} />
    </>
  );
}
