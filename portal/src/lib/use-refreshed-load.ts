import { useEffect, useState } from 'react';
import { useApiErrorMessage } from './api-error-message';
import { messageOf } from './error-message';

/** What a panel that reads once and again on refresh shows: loading, the error, or the model. */
export type LoadState<T> =
  { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; model: T };

/**
 * Reads `load` when mounted and again whenever `deps` change (a refresh key among them), and
 * cancels a read the next one or an unmount supersedes. A refresh that fails keeps the model
 * already shown; only a first read that fails shows the error.
 */
export function useRefreshedLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): LoadState<T> {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const errorMessage = useApiErrorMessage();
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (model) => setState({ status: 'ready', model }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((previous) =>
          previous.status === 'ready'
            ? previous
            : {
                status: 'error',
                message: errorMessage(error, messageOf(error, String(error))),
              },
        );
      },
    );
    return () => controller.abort();
    // `load` is a new function every render; `deps` say when it reads something else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}
