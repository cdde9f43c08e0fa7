import type { ReliabilityState } from '../reliability/reliability';
import type { ServerEntity } from './entities/server.entity';

/** The reliability fields of a server row (or of anything that carries them), as the engine's state. */
export function reliabilityStateOf(
  server: Pick<ServerEntity, keyof ReliabilityState>,
): ReliabilityState {
  return {
    reliabilityAtReport: server.reliabilityAtReport,
    lastReportAt: server.lastReportAt,
    lastCreditedAt: server.lastCreditedAt,
    belowThresholdSince: server.belowThresholdSince,
    bannedAt: server.bannedAt,
  };
}
