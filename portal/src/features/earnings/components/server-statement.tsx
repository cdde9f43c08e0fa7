import { type ServerStatement, tierMonthlyIncome, VPS_TIERS } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { useId } from 'react';
import type { Snapshot } from 'valtio';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import {
  type InputValue,
  inputRows,
  isKnownInput,
  statementStatus,
  wordsOf,
} from '../earnings-format';
import { Amount } from './amount';

/**
 * One server's statement, line by line in the order of the formula (base and pro rata,
 * reliability and slash, frozen below 95%, halving, subscriptions, ad bonus, income, what the
 * pool pays and where it goes): each line's inputs, its amount and the server's explanation.
 * Under the name, the tier's monthly figures from the one source the wizard and the Economics
 * page use (`tierMonthlyIncome`): the base reward, and the client rewards apart from it.
 */
export function ServerStatementTable({ statement }: { statement: Snapshot<ServerStatement> }) {
  const { t, locale } = useT('earn');
  const titleId = useId();
  const status = statementStatus(statement);
  const tier = VPS_TIERS.find((candidate) => candidate.id === statement.tier);
  const income = tier ? tierMonthlyIncome(tier) : null;
  const ssl = (whole: number) => formatMicroSsl(BigInt(whole) * 1_000_000n, locale);
  const state = statement.serverState === 'active' ? null : statement.serverState;
  return (
    <article
      className="earnings-server"
      aria-labelledby={titleId}
      data-testid="server-statement"
      data-server-id={statement.serverId}
      data-status={statement.status}
      data-first-facts-pending={statement.firstFactsPending}
    >
      <header className="earnings-server__header">
        <h3 id={titleId}>
          {statement.serverName ? <bdi>{statement.serverName}</bdi> : t('earnings.deletedServer')}
        </h3>
        <p className="small muted">
          {tier
            ? t('earnings.tier.name', { number: Number(tier.id.replace('tier', '')) })
            : t('earnings.tier.none')}
          {' · '}
          <span data-testid="statement-status">
            {status === 'paidOn'
              ? t('earnings.status.paidOn', {
                  date: formatDate(statement.paidAt!, locale, { dateStyle: 'medium' }),
                })
              : t(`earnings.status.${status}`)}
          </span>
          {state && (
            <>
              {' · '}
              <span className="earnings-server__badge">{t(`earnings.serverState.${state}`)}</span>
            </>
          )}
        </p>
        {income && (
          <p className="small muted" data-testid="statement-tier-income">
            {t('earnings.tier.income', {
              base: ssl(income.baseSsl),
              clients: ssl(income.clientsSsl),
              maxClients: income.maxClients,
              perClient: ssl(income.perClientSsl),
              total: ssl(income.totalSsl),
            })}
          </p>
        )}
      </header>
      {statement.firstFactsPending ? (
        <p className="small muted" data-testid="first-facts-pending">
          {t('earnings.firstFactsPending')}
        </p>
      ) : (
        <StatementLines statement={statement} titleId={titleId} />
      )}
    </article>
  );
}

function StatementLines({
  statement,
  titleId,
}: {
  statement: Snapshot<ServerStatement>;
  titleId: string;
}) {
  const { t } = useT('earn');
  return (
    <table className="data-table earnings-table" aria-labelledby={titleId}>
      <thead>
        <tr>
          <th scope="col">{t('earnings.table.line')}</th>
          <th scope="col">{t('earnings.table.inputs')}</th>
          <th scope="col" className="earnings-table__amount">
            {t('earnings.table.amount')}
          </th>
        </tr>
      </thead>
      <tbody>
        {statement.lines.map((line) => {
          const inputs = inputRows(line);
          return (
            <tr key={line.key} data-testid="statement-line" data-line={line.key}>
              <th scope="row">
                <span className="earnings-table__label">{t(`earnings.line.${line.key}`)}</span>
                <p className="small muted earnings-table__why" data-testid="line-explanation">
                  {line.explanation}
                </p>
              </th>
              <td>
                {inputs.length === 0 ? (
                  <span className="muted small">{t('earnings.value.none')}</span>
                ) : (
                  <dl className="earnings-inputs">
                    {inputs.map((row) => (
                      <div key={row.name} data-input={row.name}>
                        <dt>
                          {isKnownInput(row.name)
                            ? t(`earnings.input.${row.name}`)
                            : wordsOf(row.name)}
                        </dt>
                        <dd>
                          <InputText name={row.name} value={row.value} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
              </td>
              <td className="earnings-table__amount">
                <Amount micro={line.resultMicro} testId="line-amount" />
                <span className="small muted earnings-table__caption">
                  {t(`earnings.caption.${line.key}`)}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const TIER_NUMBER = /^tier([1-9])$/;
const SERVER_STATES = ['hidden', 'banned', 'deleted'] as const;

/** One input's value in the reader's language and digits (a tier and a withholding named). */
function InputText({ name, value }: { name: string; value: InputValue }) {
  const { t, locale } = useT('earn');
  if (value.kind === 'text' && name === 'tier' && TIER_NUMBER.test(value.value)) {
    return <>{t('earnings.tier.name', { number: Number(TIER_NUMBER.exec(value.value)![1]) })}</>;
  }
  const state =
    value.kind === 'text' && name === 'withheld'
      ? SERVER_STATES.find((candidate) => candidate === value.value)
      : undefined;
  if (state) return <>{t(`earnings.serverState.${state}`)}</>;
  switch (value.kind) {
    case 'none':
      return <>{t('earnings.value.none')}</>;
    case 'flag':
      return <>{value.value ? t('earnings.value.yes') : t('earnings.value.no')}</>;
    case 'amount':
      return <>{formatMicroSsl(value.micro, locale, { decimals: 'cents' })}</>;
    case 'percent':
      return (
        <>
          {formatNumber(value.value / 100, locale, {
            style: 'percent',
            maximumFractionDigits: 2,
          })}
        </>
      );
    case 'count':
      return <>{formatNumber(value.value, locale)}</>;
    case 'days':
    case 'hours':
    case 'minutes':
      return <>{t(`earnings.value.${value.kind}`, { count: value.value })}</>;
    case 'date':
      return <>{formatDate(value.iso, locale, { dateStyle: 'medium', timeZone: 'UTC' })}</>;
    case 'text':
      return <bdi>{value.value}</bdi>;
    case 'scale':
      return (
        <>
          {value.hundredths === null
            ? t('earnings.value.scaleNone')
            : t('earnings.value.scale', {
                percent: formatNumber(Number(value.hundredths) / 10_000, locale, {
                  style: 'percent',
                  minimumFractionDigits: 2,
                  maximumFractionDigits: 2,
                }),
              })}
        </>
      );
  }
}
