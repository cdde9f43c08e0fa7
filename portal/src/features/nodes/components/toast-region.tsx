import { useT } from '../../../lib/i18n/i18n';
import { formatPercent } from '../server-format';
import { dismissToast, type ToastMessage, useNodes } from '../store';
import '../nodes.css';

/** Toasts of the node dashboard (docs/product/states.md#subscription-and-reliability-states reliability changes, docs/product/messages.md#dashboard-messages refresh failures). */
export function ToastRegion() {
  const { t, locale } = useT('node');
  const { toasts } = useNodes();
  const text = (message: ToastMessage): string => {
    if (message.kind === 'refreshFailed') {
      return message.error
        ? t('toast.refreshFailed', { error: message.error })
        : t('toast.refreshFailedUnknown');
    }
    const values = {
      name: message.name,
      from: formatPercent(message.from, locale),
      to: formatPercent(message.to, locale),
    };
    return message.kind === 'reliabilityRose'
      ? t('toast.reliabilityRose', values)
      : t('toast.reliabilityDropped', values);
  };
  return (
    <div className="node-toasts" role="status" aria-live="polite" data-testid="toasts">
      {toasts.map((toast) => (
        <div key={toast.id} className={`node-toast node-toast--${toast.tone}`}>
          <span>{text(toast.message)}</span>
          <button
            type="button"
            className="node-toast__close"
            aria-label={t('toast.dismiss')}
            onClick={() => dismissToast(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
