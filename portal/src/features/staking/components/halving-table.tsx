import type { StakingData } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import type { Snapshot } from 'valtio';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { halvingStatus, requirementMet } from '../staking-format';

/**
 * docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy halving protection per server: the node's year and the share of its monthly
 * earnings to stake, what the requirement asks so far, and when the cut would apply.
 */
export function HalvingTable({ data }: { data: Snapshot<StakingData> }) {
  const { t, locale } = useT('earn');
  const now = new Date(data.lastUpdated);
  // The server's days are UTC days.
  const day = (iso: string) => formatDate(iso, locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const met = requirementMet(data.requiredStakeMicro, data.stakeMicro);
  return (
    <div className="staking-halving" data-testid="halving-table">
      <h3>{t('staking.halving.title')}</h3>
      <p className="small muted" data-testid="halving-requirement">
        {met
          ? t('staking.halving.requirementMet', {
              amount: formatMicroSsl(data.requiredStakeMicro, locale, { decimals: 'cents' }),
            })
          : t('staking.halving.requirementNotMet', {
              amount: formatMicroSsl(data.requiredStakeMicro, locale, { decimals: 'cents' }),
            })}{' '}
        {t('staking.halving.rule')}
      </p>
      {data.servers.length === 0 ? (
        <p className="small muted">{t('staking.halving.noServers')}</p>
      ) : (
        <div className="staking-halving__scroll">
          <table className="data-table staking-halving__table">
            <thead>
              <tr>
                <th scope="col">{t('staking.halving.column.server')}</th>
                <th scope="col">{t('staking.halving.column.year')}</th>
                <th scope="col">{t('staking.halving.column.share')}</th>
                <th scope="col">{t('staking.halving.column.required')}</th>
                <th scope="col">{t('staking.halving.column.hardwareSince')}</th>
                <th scope="col">{t('staking.halving.column.status')}</th>
              </tr>
            </thead>
            <tbody>
              {data.servers.map((server) => {
                const status = halvingStatus(server, now);
                return (
                  <tr key={server.id} data-testid="halving-row">
                    <td>
                      <bdi>{server.name}</bdi>
                    </td>
                    <td data-testid="halving-year">{formatNumber(server.nodeYear, locale)}</td>
                    <td data-testid="halving-share">
                      {formatNumber(server.requiredSharePercent / 100, locale, {
                        style: 'percent',
                      })}
                    </td>
                    <td>
                      {formatMicroSsl(server.requiredStakeMicro, locale, { decimals: 'cents' })}
                    </td>
                    <td>
                      {server.hardwareSince
                        ? day(server.hardwareSince)
                        : t('staking.halving.notReported')}
                    </td>
                    <td
                      className={`staking-halving__status staking-halving__status--${status.tone}`}
                    >
                      {status.kind === 'halved'
                        ? status.allowedClients === null || status.maxClients === null
                          ? t('staking.halving.status.halved')
                          : t('staking.halving.status.halvedClients', {
                              allowed: status.allowedClients,
                              max: status.maxClients,
                            })
                        : status.kind === 'protected'
                          ? t('staking.halving.status.protected')
                          : t('staking.halving.status.ahead', { date: day(status.from) })}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
