import { formatSsl } from '@scn/proto';
import type { SubscriptionView } from '../store';
import '../subscriptions.css';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * issue 15 §7: the servers dropped from a subscription because they could no longer serve
 * (hidden below 95%, banned, deleted by their operator), and what each gave back. Nothing when
 * none was dropped.
 */
export function WithdrawnServers({ subscription }: { subscription: SubscriptionView }) {
  const withdrawn = subscription.withdrawnServers;
  if (withdrawn.length === 0) return null;
  return (
    <section className="subscription-card__withdrawn" data-testid="subscription-withdrawn">
      <p className="small subscription-card__withdrawn-title">
        {subscription.serverCount === 0
          ? 'Not renewed: none of its servers can serve you any more. Choose new servers on the market.'
          : 'Dropped because they could no longer serve you (you are not charged for them):'}
      </p>
      <ul className="subscription-card__servers">
        {withdrawn.map((server) => (
          <li key={server.id} data-testid="withdrawn-server" data-reason={server.reason}>
            <span className="subscription-card__server-name">{server.name}</span>
            {': '}
            <span data-testid="withdrawn-reason">{server.reasonText}</span>
            <span className="small muted">
              {' · '}
              {dateTime.format(new Date(server.withdrawnAt))}
              {' · '}
            </span>
            <span data-testid="withdrawn-refund" title={`${server.refund} SSL`}>
              {BigInt(server.refundMicro) > 0n
                ? `${formatSsl(server.refundMicro)} SSL refunded`
                : 'no paid time was left to refund'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
