import { useLocation } from 'react-router-dom';

/** Temporary page body until this area's feature work lands: names the page and where it came from. */
export function AreaPlaceholder({ heading }: { heading: string }) {
  const { pathname } = useLocation();
  return (
    <section style={{ padding: '1rem' }}>
      <h1>{heading}</h1>
      <p>Served by remote-title at {pathname}</p>
    </section>
  );
}
