import styles from './Skeleton.module.scss';

interface SkeletonProps {
  width?: number | string;
  height?: number | string;
  className?: string;
}

/** A grey placeholder shape shown while content loads; hidden from assistive technology. */
export function Skeleton({ width, height, className }: SkeletonProps) {
  return <span aria-hidden="true" className={`${styles.skeleton} ${className ?? ''}`} style={{ width, height }} />;
}
