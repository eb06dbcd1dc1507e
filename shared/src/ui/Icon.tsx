// The icons more than one app draws, as paths on the 24×24 grid of `Icon`. An icon only one app
// draws stays with that app, in the same frame. Inline paths cost no request and no icon font.
export const icons = {
  play: 'M7 4v16l13-8z',
  pause: 'M6 5h4v14H6zm8 0h4v14h-4z',
  soundOff: 'M3 9h4l5-4v14l-5-4H3zm13.6.2 1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z',
  soundOn: 'M3 9h4l5-4v14l-5-4H3zm13.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4M14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6',
  download: 'M11 3h2v10l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM4 19h16v2H4z',
  search: 'M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3m0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10',
  /** A line icon. */
  close: 'M6 6l12 12M18 6L6 18',
} as const;

interface IconProps {
  /** The path on a 24×24 grid. */
  d: string;
  /** Drawn as a line (stroked) rather than a solid shape. */
  line?: boolean;
  /** A line icon filled in, e.g. the pressed thumbs-up. */
  filled?: boolean;
  /** Size or colour where the icon sits (24px and the text colour otherwise). */
  className?: string;
}

/** The one frame every icon is drawn in. Decorative: the control around it carries the name. */
export function Icon({ d, line = false, filled = false, className }: IconProps) {
  const look = ['nn-icon', line && 'nn-icon-line', filled && 'nn-icon-filled', className].filter(Boolean).join(' ');
  return (
    <svg className={look} width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}
