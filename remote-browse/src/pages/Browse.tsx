import { usePageTitle } from '@netnet/shared';
import { Billboard } from '../billboard/Billboard';
import { homeRows } from '../rows/rowSets';
import { RowStack } from '../rows/RowStack';

/** /browse, the members' home: the billboard (the looping trailer and the featured title), then the home rows. */
export default function Browse() {
  usePageTitle('Home');
  return (
    <>
      <h1 className="nn-visually-hidden">Home</h1>
      <Billboard />
      <RowStack rows={homeRows} />
    </>
  );
}
