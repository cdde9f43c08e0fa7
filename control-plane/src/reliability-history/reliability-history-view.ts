import type { ReliabilityDay } from '@scn/proto';
import type { ServerHistoryDay } from './reliability-history.repository';

/** A stored day as the API answers it: the time-weighted average to one decimal. */
export function toReliabilityDay(day: ServerHistoryDay): ReliabilityDay {
  return {
    date: day.day,
    observedSeconds: day.observedSeconds,
    averageReliability: Math.round((day.reliabilitySeconds * 10) / day.observedSeconds) / 10,
    minReliability: day.minReliability,
    belowSeconds: day.belowSeconds,
    reasons: {
      staleSeconds: day.staleSeconds,
      failedClientCounts: day.failedReports,
      malformedReports: day.malformedReports,
    },
  };
}
