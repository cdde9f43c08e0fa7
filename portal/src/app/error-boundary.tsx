import { Component, type ErrorInfo, type ReactNode } from 'react';
import './routes/not-found.css';

interface ErrorBoundaryState {
  failed: boolean;
}

/** A render failure shows a way out instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled render error', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="container page not-found" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">An unexpected error stopped this page. Reloading usually helps.</p>
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload page
        </button>
      </div>
    );
  }
}
