import { useT } from '../../../lib/i18n/i18n';
import { formatMicroSsl } from '../../../lib/money';
import type { SubscriptionView } from '../store';
import { dateTimeText } from './subscription-card';
import '../subscriptions.css';

/**
 * The servers dropped from a subscription because they could no longer serve
 * (hidden below 95%, banned, deleted by their operator), and what each gave back. Nothing when
 * none was dropped.
 */
export function WithdrawnServers({ subscription }: { subscription: SubscriptionView }) {
  const { t, locale } = useT('client');
  const withdrawn = subscription.withdrawnServers;
  if (withdrawn.length === 0) return null;
  return (
    <section className="subscription-card__withdrawn" data-testid="subscription-withdrawn">
      <p className="small subscription-card__withdrawn-title">
        {subscription.serverCount === 0 ? t('withdrawn.none') : t('withdrawn.some')}
      </p>
      <ul className="subscription-card__servers">
        {withdrawn.map((server) => (
          <li key={server.id} data-testid="withdrawn-server" data-reason={server.reason}>
            <span className="subscription-card__server-name">{server.name}</span>
            {': '}
            <span data-testid="withdrawn-reason">{t(`withdrawn.reason.${server.reason}`)}</span>
            <span className="small muted">
              {' · '}
              {dateTimeText(server.withdrawnAt, locale)}
              {' · '}
            </span>
            <span data-testid="withdrawn-refund" title={`${server.refund} SSL`}>
              {BigInt(server.refundMicro) > 0n
                ? t('withdrawn.refunded', {
                    amount: formatMicroSsl(server.refundMicro, locale, { decimals: 'cents' }),
                  })
                : t('withdrawn.noRefund')}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
