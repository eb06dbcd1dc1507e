// Inline icons: decorative, the buttons carry the names.
const base = { width: 24, height: 24, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

export const SoundOffIcon = () => (
  <svg {...base}>
    <path fill="currentColor" d="M3 9h4l5-4v14l-5-4H3zm13.6.2 1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z" />
  </svg>
);
export const SoundOnIcon = () => (
  <svg {...base}>
    <path fill="currentColor" d="M3 9h4l5-4v14l-5-4H3zm13.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4M14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6" />
  </svg>
);
export const PauseIcon = () => (
  <svg {...base}>
    <path fill="currentColor" d="M6 5h4v14H6zm8 0h4v14h-4z" />
  </svg>
);
export const PlayIcon = () => (
  <svg {...base}>
    <path fill="currentColor" d="M7 4v16l13-8z" />
  </svg>
);
