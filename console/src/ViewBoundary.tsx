// Around the views loaded later (./laterViews.ts): while a view's chunk comes, "Loading…"; if it
// cannot come (the API went away meanwhile), a message instead of a blank page.
import { Component, Suspense, type ReactNode } from 'react';

class Failed extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) {
      return (
        <p className="refused" role="alert">
          This view could not be loaded from the control-plane API. Reload the page when it answers again.
        </p>
      );
    }
    return this.props.children;
  }
}

export function ViewBoundary({ children, fallback = <p>Loading…</p> }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <Failed>
      <Suspense fallback={fallback}>{children}</Suspense>
    </Failed>
  );
}
