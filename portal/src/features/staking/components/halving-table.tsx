import type { StakingData } from '@scn/proto';
import type { Snapshot } from 'valtio';
import { formatDay, halvingStatus, requirementText, sslAmount } from '../staking-format';

/**
 * spec 02 §4, §9 halving protection per server: the node's year and the share of its monthly
 * earnings to stake, what the requirement asks so far, and when the cut would apply.
 */
export function HalvingTable({ data }: { data: Snapshot<StakingData> }) {
  const now = new Date(data.lastUpdated);
  return (
    <div className="staking-halving" data-testid="halving-table">
      <h3>Halving protection</h3>
      <p className="small muted" data-testid="halving-requirement">
        {requirementText(data.requiredStakeMicro, data.stakeMicro)}. After year 4, or 4 years of
        hardware without an upgrade, rewards and allowed clients are cut by 50% unless your stake
        covers it.
      </p>
      {data.servers.length === 0 ? (
        <p className="small muted">No servers yet</p>
      ) : (
        <div className="staking-halving__scroll">
          <table className="staking-halving__table">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Year</th>
                <th scope="col">Share to stake</th>
                <th scope="col">Required so far</th>
                <th scope="col">Hardware since</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.servers.map((server) => {
                const status = halvingStatus(server, now);
                return (
                  <tr key={server.id} data-testid="halving-row">
                    <td>{server.name}</td>
                    <td data-testid="halving-year">{server.nodeYear}</td>
                    <td data-testid="halving-share">{server.requiredSharePercent}%</td>
                    <td>{sslAmount(server.requiredStakeMicro)} SSL</td>
                    <td>
                      {server.hardwareSince ? formatDay(server.hardwareSince) : 'Not reported'}
                    </td>
                    <td
                      className={`staking-halving__status staking-halving__status--${status.tone}`}
                    >
                      {status.text}
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
