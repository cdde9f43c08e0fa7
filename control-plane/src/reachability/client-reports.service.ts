import { Inject, Injectable, Optional } from '@nestjs/common';
import { type Network, REACHABILITY_MESSAGES } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { SUBSCRIBED_SERVERS, type SubscribedServersReader } from '../market/subscribed-servers';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RATE_LIMITS } from '../rate-limit/rate-limit.rules';
import { ReachabilityException } from './reachability.exception';
import { ClientReportsRepository } from './client-reports.repository';
import { REACHABILITY_RULES } from './reachability-rules';
import { ReachabilityService } from './reachability.service';

/**
 * A signed-in client's report, with their consent, of whether a server of their own
 * subscriptions works in their apps from where they are (docs/reachability.md#abuse):
 * rate-limited per account, tagged with the country and network of the request's address,
 * weighed below vantage points, and counted against the account whenever vantage points in the
 * same network saw the opposite within the hour: an account contradicted again and again
 * counts for nothing, so a censor cannot hide a working server by reporting it blocked.
 */
@Injectable()
export class ClientReportsService {
  constructor(
    private readonly reachability: ReachabilityService,
    private readonly repository: ClientReportsRepository,
    private readonly rateLimits: RateLimitService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional()
    @Inject(SUBSCRIBED_SERVERS)
    private readonly subscribed: SubscribedServersReader | null = null,
  ) {}

  async report(
    accountUuid: string,
    request: { serverId: string; works: boolean },
    address: string,
  ): Promise<{ message: string; network: Network }> {
    const mine = await this.subscribed?.subscribedAmong(accountUuid, [request.serverId]);
    if (!mine?.has(request.serverId)) throw new ReachabilityException('server_not_subscribed');
    const network = this.reachability.networkOf(address);
    if (!network.country) throw new ReachabilityException('network_unknown');
    const planRevision = await this.repository.planRevisionOf(request.serverId);
    if (planRevision === null) throw new ReachabilityException('server_not_found');
    await this.rateLimits.consume(RATE_LIMITS.reachabilityReport(accountUuid));

    const now = this.clock.now();
    const key = { serverId: request.serverId, country: network.country, asn: network.asn ?? 0 };
    const seen = await this.repository.probeVerdict(
      key,
      new Date(now.getTime() - REACHABILITY_RULES.agreementWindowMs),
    );
    const probesSay = seen.works + seen.blocked === 0 ? null : seen.works >= seen.blocked;
    await this.repository.countReport(
      accountUuid,
      probesSay === null ? null : probesSay === request.works,
      now,
    );
    await this.reachability.observe([
      {
        ...key,
        observerId: accountUuid,
        observerKind: 'client',
        works: request.works,
        errorClass: 'reported',
        totalMs: null,
        planRevision,
        observedAt: now,
      },
    ]);
    return { message: REACHABILITY_MESSAGES.reported, network };
  }
}
