import { ECONOMICS_ROUTES, type LiveEconomy } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/economics/live: the pool, budget, payouts, network reliability and stakes. */
export function getLiveEconomy(): Promise<LiveEconomy> {
  return api.get<LiveEconomy>(ECONOMICS_ROUTES.live, {
    fallbackMessage: 'Failed to load the live economy',
  });
}
