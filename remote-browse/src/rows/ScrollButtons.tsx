import { useEffect, useState, type RefObject } from 'react';
import { Icon } from '@netnet/shared';
import { prefersReducedMotion } from '@netnet/shared/motion';
import styles from './Row.module.scss';

const PREVIOUS = 'M15.4 4.6 16.8 6l-6 6 6 6-1.4 1.4L8 12z';
const NEXT = 'M8.6 4.6 7.2 6l6 6-6 6 1.4 1.4L16 12z';

/** Which way the list can still scroll. */
function edges(list: HTMLElement): { back: boolean; forward: boolean } {
  return { back: list.scrollLeft > 1, forward: list.scrollLeft + list.clientWidth < list.scrollWidth - 1 };
}

/**
 * A row's arrows for a mouse (docs/product.md#genre-rows): shown on devices with a fine pointer
 * that hovers, a page of posters per press. They are not Tab stops: the keyboard has the row's
 * arrow keys, and a row is one Tab stop.
 */
export function ScrollButtons({ list, label }: { list: RefObject<HTMLUListElement | null>; label: string }) {
  const [can, setCan] = useState({ back: false, forward: false });

  useEffect(() => {
    const element = list.current;
    if (!element) return;
    const update = () =>
      setCan((current) => {
        const next = edges(element);
        return next.back === current.back && next.forward === current.forward ? current : next;
      });
    update();
    element.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    // Posters arriving after the first render (the rest of the row) widen the list.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [list]);

  const scroll = (direction: 1 | -1) => {
    const element = list.current;
    if (!element) return;
    const smooth = !prefersReducedMotion();
    element.scrollBy({ left: direction * element.clientWidth * 0.85, behavior: smooth ? 'smooth' : 'auto' });
  };

  return (
    <>
      {can.back && (
        <button type="button" tabIndex={-1} className={`${styles.arrow} ${styles.back}`} aria-label={`Previous ${label}`} onClick={() => scroll(-1)}>
          <Icon d={PREVIOUS} />
        </button>
      )}
      {can.forward && (
        <button type="button" tabIndex={-1} className={`${styles.arrow} ${styles.forward}`} aria-label={`More ${label}`} onClick={() => scroll(1)}>
          <Icon d={NEXT} />
        </button>
      )}
    </>
  );
}
