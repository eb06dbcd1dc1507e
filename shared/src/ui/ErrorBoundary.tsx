import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Shown instead of the children once they failed to render. */
  fallback: ReactNode;
  /** Told about the failure, e.g. to log it or to forget a failed lazy import. */
  onError?: (error: unknown) => void;
}

/**
 * Keeps a failure inside one part of the page. To try again, give the boundary a new `key`
 * around new children: `React.lazy` remembers a failed import, so a retry needs a new lazy component.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    this.props.onError?.(error);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
