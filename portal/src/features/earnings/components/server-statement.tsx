import { REWARDS_MESSAGES, type ServerStatement } from '@scn/proto';
import { useId } from 'react';
import type { Snapshot } from 'valtio';
import { inputRows, RESULT_CAPTIONS, serverStateBadge, statementStatus } from '../earnings-format';
import { Amount } from './amount';

/**
 * One server's statement, line by line in the order of the formula (base and pro rata,
 * reliability and slash, frozen below 95%, halving, subscriptions, ad bonus, income, what the
 * pool pays and where it goes): each line's inputs, its amount and the server's explanation.
 */
export function ServerStatementTable({ statement }: { statement: Snapshot<ServerStatement> }) {
  const titleId = useId();
  const badge = serverStateBadge(statement.serverState);
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
        <h3 id={titleId}>{statement.serverName ?? 'Deleted server'}</h3>
        <p className="small muted">
          {statement.tier ?? 'No tier'}
          {' · '}
          <span data-testid="statement-status">{statementStatus(statement)}</span>
          {badge && (
            <>
              {' · '}
              <span className="earnings-server__badge">{badge}</span>
            </>
          )}
        </p>
      </header>
      {statement.firstFactsPending ? (
        <p className="small muted" data-testid="first-facts-pending">
          {REWARDS_MESSAGES.firstFactsPending}
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
  return (
    <table className="earnings-table" aria-labelledby={titleId}>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Inputs</th>
          <th scope="col" className="earnings-table__amount">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {statement.lines.map((line) => {
          const inputs = inputRows(line);
          return (
            <tr key={line.key} data-testid="statement-line" data-line={line.key}>
              <th scope="row">
                <span className="earnings-table__label">{line.label}</span>
                <p className="small muted earnings-table__why" data-testid="line-explanation">
                  {line.explanation}
                </p>
              </th>
              <td>
                {inputs.length === 0 ? (
                  <span className="muted small">None</span>
                ) : (
                  <dl className="earnings-inputs">
                    {inputs.map((row) => (
                      <div key={row.name} data-input={row.name}>
                        <dt>{row.label}</dt>
                        <dd>{row.value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </td>
              <td className="earnings-table__amount">
                <Amount micro={line.resultMicro} testId="line-amount" />
                <span className="small muted earnings-table__caption">
                  {RESULT_CAPTIONS[line.key]}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
