import { useId, useState, type FormEvent } from 'react';
import { Icon, icons } from '@netnet/shared';
import { cleanQuery } from './query';
import styles from './SearchForm.module.scss';

const PLACEHOLDER = 'Search for a series, a movie, a genre, etc.';
const EMPTY_HINT = 'Type the name of a movie, a series or a genre.';

interface SearchFormProps {
  /** Called with a cleaned, non-empty query. */
  onSearch: (query: string) => void;
  autoFocus?: boolean;
}

/** The single search box (docs/product.md#search): submitting hands over the query and clears the box. */
export function SearchForm({ onSearch, autoFocus = false }: SearchFormProps) {
  const [text, setText] = useState('');
  const [hint, setHint] = useState(false);
  const inputId = useId();
  const hintId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = cleanQuery(text);
    if (!query) {
      // Nothing to look for: stay put and say what would work, rather than search for ''.
      setText('');
      setHint(true);
      return;
    }
    setHint(false);
    setText('');
    onSearch(query);
  };

  return (
    <form role="search" aria-label="Titles" className={styles.form} onSubmit={submit}>
      <label htmlFor={inputId} className="nn-visually-hidden">
        Search titles
      </label>
      <div className={styles.field}>
        <input
          id={inputId}
          className={styles.input}
          type="search"
          name="q"
          value={text}
          placeholder={PLACEHOLDER}
          autoComplete="off"
          enterKeyHint="search"
          spellCheck={false}
          autoFocus={autoFocus}
          aria-describedby={hint ? hintId : undefined}
          onChange={(event) => {
            setText(event.target.value);
            if (hint) setHint(false);
          }}
        />
        <button type="submit" className={styles.submit} aria-label="Search">
          <Icon d={icons.search} />
        </button>
      </div>
      <p id={hintId} className={styles.hint} aria-live="polite">
        {hint ? EMPTY_HINT : ''}
      </p>
    </form>
  );
}
