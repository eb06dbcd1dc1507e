interface SkeletonProps {
  width?: number | string;
  height?: number | string;
  className?: string;
}

/** A grey placeholder shape shown while content loads; hidden from assistive technology. */
export function Skeleton({ width, height, className }: SkeletonProps) {
  return <span aria-hidden="true" className={`nn-skeleton ${className ?? ''}`} style={{ width, height }} />;
}
