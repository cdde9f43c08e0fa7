import { tierMonthlyIncome, VPS_TIERS } from '@scn/proto';
import { useEconomicsT } from '../use-econ-format';
import { DataTable } from './data-table';
import '../economics.css';

/**
 * docs/product/constants.md#market-prices-and-limits: the VPS tiers offered by the node setup wizard, each with its monthly income at
 * full capacity and 100% reliability as `tierMonthlyIncome` of @scn/proto computes it (base +
 * up to max clients x the per-client reward = total), the figures the wizard and the earnings
 * statement show (docs/economics.md).
 */
export function VpsTierTable() {
  const { t, f } = useEconomicsT();
  return (
    <DataTable
      caption={t('tiers.caption')}
      head={[
        t('tiers.head.tier'),
        t('tiers.head.specs'),
        t('tiers.head.base'),
        t('tiers.head.clients'),
        t('tiers.head.total'),
        t('tiers.head.usd'),
      ]}
      numeric={[2, 3, 4, 5]}
      // The tier name already says cores and RAM, and the USD value is the total's: phones drop
      // both so the figures fit.
      hideOnNarrow={[1, 5]}
      rows={VPS_TIERS.map((tier) => {
        const income = tierMonthlyIncome(tier);
        return [
          <span className="econ-tier-name" key="name" data-testid="econ-tier" data-tier={tier.id}>
            {t('tiers.name', { cores: tier.vcpu, ram: f.num(tier.ramGb) })}
            {tier.recommended ? <span className="econ-badge">{t('tiers.recommended')}</span> : null}
          </span>,
          t('tiers.specs', {
            cpu: f.num(tier.vcpu),
            ram: f.num(tier.ramGb),
            ssd: f.num(tier.ssdGb),
          }),
          <span key="base" data-testid="econ-tier-base">
            {f.ssl(income.baseSsl)}
          </span>,
          <span key="clients" className="econ-cost">
            <span data-testid="econ-tier-clients">{f.ssl(income.clientsSsl)}</span>
            <span className="econ-cost__usd econ-tier-rule" data-testid="econ-tier-clients-rule">
              {t('tiers.clientsRule', {
                clients: f.num(income.maxClients),
                per: f.ssl(income.perClientSsl),
              })}
            </span>
          </span>,
          <strong key="total" data-testid="econ-tier-total">
            {f.ssl(income.totalSsl)}
          </strong>,
          f.usdOfSsl(income.totalSsl),
        ];
      })}
    />
  );
}
