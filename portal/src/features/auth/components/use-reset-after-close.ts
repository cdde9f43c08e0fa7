import { useEffect, useRef, useState } from 'react';

/** docs/product/states.md#market-and-account-states: a dialog's form resets 300 ms after it closes (so the closing fade shows it). */
const FORM_RESET_MS = 300;

/**
 * What the two auth dialogs do around opening and closing: `onOpen` runs during the render that
 * opens the dialog (the React way to derive state from a prop change: the e-mail carried over
 * from the other dialog), `reset` runs FORM_RESET_MS after it closes, unless it opens again.
 */
export function useResetAfterClose(open: boolean, onOpen: () => void, reset: () => void): void {
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) onOpen();
  }
  const resetRef = useRef(reset);
  useEffect(() => {
    resetRef.current = reset;
  });
  useEffect(() => {
    if (open) return;
    const timer = window.setTimeout(() => resetRef.current(), FORM_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [open]);
}
