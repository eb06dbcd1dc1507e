import { Component, type ReactNode } from 'react';
import styles from './RemoteErrorBoundary.module.scss';

interface Props {
  children: ReactNode;
  onError: () => void;
  onRetry: () => void;
}

/** Keeps a failing remote inside its own area: the header, navigation and other areas carry on. */
export class RemoteErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.warn('[netnet] an area failed to render:', error instanceof Error ? error.message : error);
    this.props.onError();
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className={styles.fallback} role="alert" aria-live="assertive">
        <h2 className={styles.title}>This part of Netnet is unavailable right now</h2>
        <p className={styles.text}>The rest of Netnet still works. You can try again in a moment.</p>
        <button type="button" className={styles.retry} onClick={this.props.onRetry}>
          Retry
        </button>
      </section>
    );
  }
}
