// Inline icons: a few hundred bytes, no icon font or extra request. Decorative; the control names them.
const base = { width: 24, height: 24, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

export const HomeIcon = () => (
  <svg {...base}><path fill="currentColor" d="M12 3 2 11h3v9h5v-6h4v6h5v-9h3z" /></svg>
);
export const ComingSoonIcon = () => (
  <svg {...base}><path fill="currentColor" d="M4 4h16v12H4zm2 2v8h12V6zm-3 13h18v2H3z" /></svg>
);
export const SearchIcon = () => (
  <svg {...base}><path fill="currentColor" d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3m0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10" /></svg>
);
export const DownloadsIcon = () => (
  <svg {...base}><path fill="currentColor" d="M11 3h2v10l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM4 19h16v2H4z" /></svg>
);
export const BackIcon = () => (
  <svg {...base}><path fill="currentColor" d="M15.4 4.6 16.8 6l-6 6 6 6-1.4 1.4L8 12z" /></svg>
);
