import { PRICING, sslToMicro } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { Trans } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { type SubscriptionView, changeType } from '../store';

export interface ChangeTypeDialogProps {
  ownerUuid: string;
  subscription: SubscriptionView | null;
  onClose: () => void;
  /** The change moved money (or paused the subscription): the wallet should reload. */
  onBalanceChanged: () => void;
}

/**
 * docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy: switching between monthly and hourly billing costs 10 SSL per server upfront,
 * with no refund of the remaining time. The server prices it; this shows what it will ask. What
 * the switch costs and what it loses are marked as such (a cross, in the danger colour), never
 * with the ticks of a list of benefits; what simply changes is a plain point.
 */
export function ChangeTypeDialog({
  ownerUuid,
  subscription,
  onClose,
  onBalanceChanged,
}: ChangeTypeDialogProps) {
  const { t, locale } = useT('client');
  const next = subscription?.billingCycle === 'hourly' ? 'monthly' : 'hourly';
  const perServer = sslToMicro(PRICING.monthlyPerServerSsl);
  const count = subscription?.serverCount ?? 0;
  const total = perServer * BigInt(count);

  const confirm = async () => {
    if (!subscription) return;
    await changeType(ownerUuid, subscription.id, next);
    onBalanceChanged();
  };

  return (
    <ConfirmDialog
      open={subscription !== null}
      title={t('changeType.title')}
      confirmLabel={next === 'hourly' ? t('card.switchTo.hourly') : t('card.switchTo.monthly')}
      busyLabel={t('card.changing')}
      onConfirm={confirm}
      onClose={onClose}
      fallbackError={t('changeType.fallbackError')}
      data-testid="change-type-dialog"
    >
      <p>
        <Trans
          ns="client"
          i18nKey={next === 'hourly' ? 'changeType.questionHourly' : 'changeType.questionMonthly'}
          values={{ name: subscription?.name ?? '' }}
          components={{ strong: <strong /> }}
        />
      </p>
      <ul className="consequence-list small" data-testid="change-type-consequences">
        <li className="consequence-list__loss" data-kind="loss">
          <span className="sr-only">{t('changeType.lossMark')} </span>
          {count > 1
            ? t('changeType.costMany', {
                perServer: formatMicroSsl(perServer, locale, { decimals: 'cents' }),
                total: formatMicroSsl(total, locale, { decimals: 'cents' }),
                count,
              })
            : t('changeType.costOne', {
                perServer: formatMicroSsl(perServer, locale, { decimals: 'cents' }),
              })}
        </li>
        <li className="consequence-list__loss" data-kind="loss">
          <span className="sr-only">{t('changeType.lossMark')} </span>
          {t('changeType.noRefund')}
        </li>
        <li className="consequence-list__info" data-kind="info">
          {next === 'hourly'
            ? t('changeType.hourlyTerms', {
                hours: formatNumber(PRICING.hourlyBlockHours, locale),
                rate: formatMicroSsl(
                  BigInt(Math.round(PRICING.hourlyPerServerSsl * 1_000_000)),
                  locale,
                ),
              })
            : t('changeType.monthlyTerms', {
                days: formatNumber(PRICING.monthlyValidityDays, locale),
              })}
        </li>
        <li className="consequence-list__info" data-kind="info">
          {t('changeType.shortBalance')}
        </li>
      </ul>
    </ConfirmDialog>
  );
}
