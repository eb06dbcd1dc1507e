import { Component, type ReactNode } from 'react';
import { canFallBackLate, fallBackToStable } from './registerRollout';
import type { RemoteName } from './remotes';
import { PageLoading } from '../layout/PageLoading';

interface Props {
  remote: RemoteName;
  /** The remote now points at stable: the area should load its page again. */
  onFallBack: () => void;
  children: ReactNode;
}

/**
 * Inside an area, around its page: a chunk or style sheet of a canary (or pinned) page that fails
 * to load once the page is running is a failed load like its entry's, so stable replaces it in
 * the same page (docs/architecture.md, "Releases and staged rollout"). The member sees the area's loading page, not
 * its error; any other error goes on to the area's own boundary.
 */
export class FallBackOnFileError extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    if (fallBackToStable(this.props.remote, error)) this.props.onFallBack();
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (canFallBackLate(this.props.remote, error)) return <PageLoading label="Loading this part of Netnet" />;
    // Thrown from render, it reaches the area's boundary: its error and Retry.
    throw error;
  }
}
