import { HomeTrailer } from '../trailer/HomeTrailer';
import { homeRows } from '../rows/rowSets';
import { RowStack } from '../rows/RowStack';

/** /browse, the members' home: the looping trailer, then the home genre rows. */
export default function Browse() {
  return (
    <>
      <h1 className="nn-visually-hidden">Home</h1>
      <HomeTrailer />
      <RowStack rows={homeRows} />
    </>
  );
}
