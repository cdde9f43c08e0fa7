import { dismissToast, useNodes } from '../store';
import '../nodes.css';

/** Toasts of the node dashboard (spec 02 §4 reliability changes, §8 refresh failures). */
export function ToastRegion() {
  const { toasts } = useNodes();
  return (
    <div className="node-toasts" role="status" aria-live="polite" data-testid="toasts">
      {toasts.map((toast) => (
        <div key={toast.id} className={`node-toast node-toast--${toast.tone}`}>
          <span>{toast.text}</span>
          <button
            type="button"
            className="node-toast__close"
            aria-label="Dismiss"
            onClick={() => dismissToast(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
