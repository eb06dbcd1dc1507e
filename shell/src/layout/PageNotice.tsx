import { Notice, usePageNotice } from '@netnet/shared';

/** A notice given by a page that has since been left (a title that does not exist, for one). */
export function PageNotice() {
  return <Notice message={usePageNotice()} />;
}
