import { Component, type ReactNode } from 'react';

interface BackdropBoundaryProps {
  fallback: ReactNode;
  children: ReactNode;
}

/** Keeps a failure of the backdrop (e.g. no runtime config) from reaching the page around it. */
export class BackdropBoundary extends Component<BackdropBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
