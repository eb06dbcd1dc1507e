// Inline so the button costs no request; decorative, the button carries the name.
export const SearchIcon = () => (
  <svg width={24} height={24} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path
      fill="currentColor"
      d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3m0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10"
    />
  </svg>
);
