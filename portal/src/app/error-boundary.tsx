import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
    return <RenderFailed />;
  }
}

/**
 * The way out, in the reader's language. It never suspends: what failed may be the loading of a
 * chunk, the `errors` catalogue's included, so until that catalogue is there it speaks English.
 */
function RenderFailed() {
  const { t, ready } = useTranslation('errors', { useSuspense: false });
  return (
    <div className="container page not-found" role="alert">
      <h1>{ready ? t('boundary.title') : 'Something went wrong'}</h1>
      <p className="muted">
        {ready
          ? t('boundary.body')
          : 'An unexpected error stopped this page. Reloading usually helps.'}
      </p>
      <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
        {ready ? t('boundary.reload') : 'Reload page'}
      </button>
    </div>
  );
}
