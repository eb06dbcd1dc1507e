import { useEffect, useReducer, useRef, useState } from 'react';
import { LIST_FAILED, LoadError, Spinner, usePageTitle, useSavedTitles, type SavedTitle } from '@netnet/shared';
import { EmptyList, ListHint } from '../myList/EmptyList';
import { SavedTitleCard } from '../myList/SavedTitleCard';
import styles from '../myList/MyList.module.scss';

/** /my-list: the member's saved titles, newest first (docs/product.md#my-list). */
export default function MyList() {
  usePageTitle('My list');
  // Retry reads the list afresh. It lives here, not in shared's useSavedTitles: the shared package
  // ships whole on every page, and a visitor's first page is at its JS budget.
  const [attempt, retry] = useReducer((n: number) => n + 1, 0);
  return <SavedList key={attempt} retry={retry} />;
}

function SavedList({ retry }: { retry(): void }) {
  const { state, remove } = useSavedTitles();
  const [removing, setRemoving] = useState<SavedTitle | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Where keyboard focus goes once a removed card has left the page: the next card, or the heading.
  const [focusAfterRemoval, setFocusAfterRemoval] = useState<{ index: number; removed: SavedTitle } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const onRemove = async (title: SavedTitle) => {
    const index = state.titles.findIndex((t) => t.id === title.id && t.type === title.type);
    setRemoving(title);
    setFailure(null);
    try {
      await remove(title.type, title.id);
      setFocusAfterRemoval({ index, removed: title });
    } catch {
      setFailure(LIST_FAILED);
    } finally {
      setRemoving(null);
    }
  };

  useEffect(() => {
    if (focusAfterRemoval === null) return;
    const { index, removed } = focusAfterRemoval;
    // The list is read again after the removal, maybe after this runs: focusing now could land on
    // the removed card's button, and focus would fall to the page when it goes.
    if (state.titles.some((t) => t.id === removed.id && t.type === removed.type)) return;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button');
    const next = buttons?.[Math.min(index, buttons.length - 1)];
    (next ?? headingRef.current)?.focus();
    setFocusAfterRemoval(null);
  }, [state.titles, focusAfterRemoval]);

  return (
    <section className={styles.page}>
      <h1 className={styles.heading} ref={headingRef} tabIndex={-1}>
        My list
      </h1>
      <ListHint />
      {failure && (
        <p role="alert" className={styles.failure}>
          {failure}
        </p>
      )}
      {state.status === 'loading' && <Spinner label="Loading My list" />}
      {state.status === 'unavailable' && (
        // The storage may only have been slow or busy: Retry asks it again.
        <LoadError
          message="My list can’t be read on this browser: it keeps your titles in the browser’s own storage, which is turned off or blocked here (some private windows do this)."
          onRetry={retry}
        />
      )}
      {state.status === 'ready' && state.titles.length === 0 && <EmptyList />}
      {state.status === 'ready' && state.titles.length > 0 && (
        <>
          <p className={styles.count}>{state.titles.length === 1 ? '1 title' : `${state.titles.length} titles`}</p>
          <ul className={styles.grid} ref={listRef} aria-label="Saved titles">
            {state.titles.map((title) => (
              <SavedTitleCard
                key={`${title.type}-${title.id}`}
                title={title}
                onRemove={onRemove}
                busy={removing?.id === title.id && removing.type === title.type}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
