import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Network, ReachabilityRow, ReachabilityState } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { GeoIpService } from '../geoip/geoip.service';
import { MarketRefresh } from '../market/market-refresh';
import type { VisitorReachabilityReader } from '../market/visitor-reachability';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import {
  type EstimateRow,
  type NewObservation,
  type ReachKey,
  ReachabilityRepository,
  type StateChange,
} from './reachability.repository';
import {
  estimate,
  REACHABILITY_RULES,
  reachPenalty,
  trustOf,
  visibleState,
} from './reachability-rules';

/** Called with the estimates whose state changed (the automatic port regeneration listens). */
export type ReachabilityListener = (changes: readonly StateChange[]) => Promise<void>;

const keyOf = (k: ReachKey) => `${k.serverId}|${k.country}|${k.asn}`;

/**
 * Observations in, estimates out (docs/reachability.md): every observation recomputes the
 * estimates it touches, the market order's penalty of their servers, and tells the listeners
 * which states changed. Also the reader other domains use (the market, the feed, replacements).
 */
@Injectable()
export class ReachabilityService implements VisitorReachabilityReader {
  private readonly logger = new Logger('ReachabilityService');
  private readonly listeners: ReachabilityListener[] = [];

  constructor(
    private readonly repository: ReachabilityRepository,
    private readonly geoip: GeoIpService,
    private readonly market: MarketRefresh,
    private readonly realtime: RealtimeGateway,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  listen(listener: ReachabilityListener): void {
    this.listeners.push(listener);
  }

  asnName(asn: number): string | null {
    return this.geoip.asnName(asn);
  }

  networkOf(address: string): Network {
    const place = this.geoip.lookup(address);
    return { country: place.country, asn: place.asn, asnName: place.asnName };
  }

  /** Stores observations and brings their estimates up to date; answers the changes. */
  async observe(observations: readonly NewObservation[]): Promise<StateChange[]> {
    const unique = new Map<string, NewObservation>();
    for (const o of observations) unique.set(`${keyOf(o)}|${o.observerId}`, o);
    const stored = await this.repository.record([...unique.values()]);
    return this.recompute(stored);
  }

  /** Recomputes these estimates from their observations. */
  async recompute(keys: readonly ReachKey[]): Promise<StateChange[]> {
    const distinct = new Map(keys.map((k) => [keyOf(k), k]));
    if (distinct.size === 0) return [];
    const now = this.clock.now();
    const since = new Date(now.getTime() - REACHABILITY_RULES.freshMs);
    const observations = await this.repository.observationsOf([...distinct.values()], since);
    const byKey = new Map<string, typeof observations>();
    for (const o of observations) {
      const list = byKey.get(keyOf(o)) ?? [];
      list.push(o);
      byKey.set(keyOf(o), list);
    }
    const estimates = [...distinct.entries()].map(([id, key]) => ({
      key,
      estimate: estimate(
        (byKey.get(id) ?? []).map((o) => ({
          observerKind: o.observerKind,
          works: o.works,
          trust: o.observerKind === 'probe' ? 1 : trustOf(o.agreements, o.disagreements),
          observedAt: o.observedAt,
        })),
        now,
      ),
    }));
    const changes = await this.repository.saveEstimates(estimates);
    const changed = changes.filter((c) => c.before !== c.after);
    await this.refreshPenalties([...new Set(keys.map((k) => k.serverId))]);
    if (changed.length > 0) {
      this.realtime.serverListUpdated('reachability');
      for (const listener of this.listeners) {
        await listener(changed).catch((error: unknown) =>
          this.logger.error({ err: error }, 'A reachability listener failed'),
        );
      }
    }
    return changed;
  }

  /** The market order's penalty of these servers, from their visible states. */
  async refreshPenalties(serverIds: readonly string[]): Promise<void> {
    if (serverIds.length === 0) return;
    const now = this.clock.now();
    const rows = await this.repository.estimatesOf(serverIds);
    const states = new Map<string, ReachabilityState[]>(serverIds.map((id) => [id, []]));
    for (const row of rows) states.get(row.serverId)?.push(visibleState(row, now));
    await this.market.setReachPenalties(
      new Map([...states].map(([id, list]) => [id, reachPenalty(list)])),
    );
  }

  /**
   * Each server's state from a network: its own estimate there when fresh; else, from the other
   * networks of its country, the state they all agree on (mixed or none: unknown).
   */
  async statesFrom(
    serverIds: readonly string[],
    network: Network,
  ): Promise<ReadonlyMap<string, ReachabilityState>> {
    const result = new Map<string, ReachabilityState>();
    if (!network.country || serverIds.length === 0) return result;
    const now = this.clock.now();
    const rows = await this.repository.estimatesFrom(serverIds, network.country);
    const byServer = new Map<string, EstimateRow[]>();
    for (const row of rows)
      byServer.set(row.serverId, [...(byServer.get(row.serverId) ?? []), row]);
    for (const [serverId, list] of byServer) {
      const own = list.find((r) => r.asn === (network.asn ?? 0));
      const ownState = visibleState(own, now);
      if (ownState !== 'unknown') {
        result.set(serverId, ownState);
        continue;
      }
      const others = new Set(list.map((r) => visibleState(r, now)).filter((s) => s !== 'unknown'));
      if (others.size === 1) result.set(serverId, [...others][0]!);
    }
    return result;
  }

  /** Servers measured working from exactly that network, best first (at most 1,000). */
  async workingFrom(network: Network): Promise<readonly string[]> {
    if (!network.country) return [];
    const since = new Date(this.clock.now().getTime() - REACHABILITY_RULES.freshMs);
    return this.repository.workingFrom(network.country, network.asn ?? 0, since, 1000);
  }

  /** The table rows of these servers (the server page, the operator's dashboard). */
  async rowsOf(serverIds: readonly string[]): Promise<Map<string, ReachabilityRow[]>> {
    const now = this.clock.now();
    const result = new Map<string, ReachabilityRow[]>(serverIds.map((id) => [id, []]));
    for (const row of await this.repository.estimatesOf(serverIds)) {
      const state = visibleState(row, now);
      if (now.getTime() - row.measuredAt.getTime() > REACHABILITY_RULES.freshMs) continue;
      result.get(row.serverId)?.push({
        country: row.country,
        asn: row.asn,
        asnName: this.geoip.asnName(row.asn),
        state,
        score: Math.round(row.score / 10),
        observers: row.observers,
        probes: row.probes,
        measuredAt: row.measuredAt.toISOString(),
        blockedSince: state === 'blocked' ? (row.blockedSince?.toISOString() ?? null) : null,
      });
    }
    for (const rows of result.values()) {
      rows.sort(
        (a, b) =>
          rank(a.state) - rank(b.state) || a.country.localeCompare(b.country) || a.asn - b.asn,
      );
    }
    return result;
  }
}

const rank = (state: ReachabilityState) => (state === 'blocked' ? 0 : state === 'works' ? 1 : 2);
