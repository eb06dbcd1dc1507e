// Decorative; the links carry the names.
const base = { width: 24, height: 24, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

export const PlayIcon = () => (
  <svg {...base}>
    <path fill="currentColor" d="M7 4v16l13-8z" />
  </svg>
);
export const InfoIcon = () => (
  <svg {...base}>
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
    <path fill="currentColor" d="M11 10.5h2V17h-2zm0-3.5h2v2h-2z" />
  </svg>
);
