// The icons only the shell draws (on the 24×24 grid of the shared `Icon`).
export const shellIcons = {
  home: 'M12 3 2 11h3v9h5v-6h4v6h5v-9h3z',
  comingSoon: 'M4 4h16v12H4zm2 2v8h12V6zm-3 13h18v2H3z',
  back: 'M15.4 4.6 16.8 6l-6 6 6 6-1.4 1.4L8 12z',
} as const;
