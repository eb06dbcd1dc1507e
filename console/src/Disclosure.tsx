// A disclosure whose content is made only once it is opened. The charts' tables of numbers run to
// hundreds of cells that a closed <details> shows to nobody (a screen reader skips it too) but that
// every draw of the chart would otherwise build.
import { useState, type ReactNode } from 'react';

export function Disclosure({ summary, children }: { summary: string; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children()}
    </details>
  );
}
