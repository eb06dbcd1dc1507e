import { useEffect } from 'react';
import { href, useLocation, useNavigate, usePageTitle, useSearchParams } from '@netnet/shared';
import { cleanQuery, isDamagedQuery } from '../search/query';
import { SearchForm } from '../search/SearchForm';
import { SearchResults } from '../search/SearchResults';
import styles from './Search.module.scss';

/** /search?q=…: the query lives in the URL, so reload, back/forward and shared links all agree. */
export default function Search() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const damaged = isDamagedQuery(useLocation().search);
  const raw = damaged ? null : params.get('q');
  const query = cleanQuery(raw);
  usePageTitle(query ? `Search: ${query}` : 'Search');

  // A messy or overlong link is rewritten to the query actually searched, in place.
  useEffect(() => {
    if (raw !== null && raw !== query) void navigate(href('search', { q: query }), { replace: true });
  }, [raw, query, navigate]);

  // Searching again for what is on screen would only add a duplicate history entry.
  const search = (next: string) => void navigate(href('search', { q: next }), { replace: next === query });

  return (
    <section className={styles.page}>
      <h1 className="nn-visually-hidden">Search</h1>
      <SearchForm onSearch={search} autoFocus={!query} />
      {damaged ? (
        <p className={styles.idle} role="alert">
          This search link is damaged, so there is nothing to look for. Type a title or a genre to search.
        </p>
      ) : query ? (
        <SearchResults key={query} query={query} />
      ) : (
        <p className={styles.idle}>Find movies and series by name, or by a genre such as ‘comedy’.</p>
      )}
    </section>
  );
}
