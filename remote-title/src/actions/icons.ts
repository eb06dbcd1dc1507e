// The icons only the title's own actions draw (on the 24×24 grid of the shared `Icon`, as lines).
export const titleIcons = {
  share: 'M12 3v12M7 8l5-5 5 5M5 13v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6',
  thumbsUp: 'M7 10v10H4V10h3zm2 10h8.2a2 2 0 0 0 2-1.6l1.3-6A2 2 0 0 0 18.5 10H14l.7-3.6A1.9 1.9 0 0 0 11.3 5L9 10v10z',
} as const;
