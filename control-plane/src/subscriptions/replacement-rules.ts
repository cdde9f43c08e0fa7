import { type Network, VPS_TIERS, type VpsTierId } from '@scn/proto';
import { viewReliability } from '../reliability/reliability';
import type { Posting } from '../wallet/ledger.service';
import { subscribable } from './subscription-purchase.service';
import type { SubscribableServer, SubscriptionRecord } from './subscriptions.repository';

/**
 * Which subscriptions get a blocked server replaced, and by what (docs/reachability.md#replacements).
 * Pure functions: the database parts are in server-replacement.service.ts.
 */

/** The client's network counts while it fetched the feed from there this recently. */
export const CLIENT_NETWORK_FRESH_MS = 7 * 86_400_000;

/** Where a subscription's client last fetched its feed from (subscriptions.client_*). */
export interface ClientNetwork {
  country: string | null;
  asn: number | null;
  seenAt: Date | null;
}

/**
 * The network to replace blocked servers for, or null: only a subscription that is serving a
 * paid period now (active, not paused, paid time running) and whose client was seen in a known
 * network within CLIENT_NETWORK_FRESH_MS.
 */
export function replacementNetwork(
  record: Pick<SubscriptionRecord, 'status' | 'expiresAt'>,
  client: ClientNetwork,
  now: Date,
): ClientPlace | null {
  if (record.status !== 'active' || record.expiresAt.getTime() <= now.getTime()) return null;
  if (!client.country || !client.seenAt) return null;
  if (now.getTime() - client.seenAt.getTime() > CLIENT_NETWORK_FRESH_MS) return null;
  return { country: client.country, asn: client.asn ?? 0, asnName: null };
}

/** A client's network as the replacement reads it: a known country, the ASN (0 unknown). */
export type ClientPlace = Network & { country: string; asn: number };

/** A server that could take a blocked one's place, with what the choice compares. */
export interface ReplacementCandidate {
  server: SubscribableServer;
  /** Its market listing is shown (market_listings.listed: not banned, 95% or more, has an address). */
  listed: boolean;
  /** Places left by the market's count (capacity less clients); client_sets_take has the last word. */
  freePlaces: number;
  /** Its 'works' score from the client's network, 0..1000 (server_reachability.score). */
  worksScore: number;
  pingMs: number | null;
  /** What the client would pay for one period of it now (subscription-pricing). */
  priceMicro: bigint;
}

/** The blocked server, with its price for the client now. */
export interface BlockedServer {
  server: SubscribableServer;
  priceMicro: bigint;
}

/** A tier's place in VPS_TIERS (bigger is better); -1 for none (a manual server). */
export function tierRank(tier: VpsTierId | null): number {
  return tier === null ? -1 : VPS_TIERS.findIndex((t) => t.id === tier);
}

/**
 * The comparable replacements of a blocked server, best first: agent servers the market lets a
 * client buy now (SubscriptionPurchaseService's rule, and listed), not already in the
 * subscription, measured working from the client's network (the caller passes only those), with
 * a free place, the same tier or better, not dearer for the client, premium only for premium;
 * ordered by 'works' score, then reliability now, then ping, then id (stable across replicas).
 */
export function replacementsFor(
  blocked: BlockedServer,
  candidates: readonly ReplacementCandidate[],
  subscribed: ReadonlySet<string>,
  now: Date,
): ReplacementCandidate[] {
  const minimumRank = tierRank(blocked.server.tier);
  const fitting = candidates.filter(
    (c) =>
      c.server.source === 'agent' &&
      c.listed &&
      subscribable(c.server, now) &&
      !subscribed.has(c.server.id) &&
      c.server.id !== blocked.server.id &&
      c.freePlaces > 0 &&
      tierRank(c.server.tier) >= minimumRank &&
      tierRank(c.server.tier) >= 0 &&
      c.priceMicro <= blocked.priceMicro &&
      (!c.server.premium || blocked.server.premium),
  );
  const reliability = new Map(
    fitting.map((c) => [c.server.id, viewReliability(c.server, now).reliability]),
  );
  return fitting.sort(
    (a, b) =>
      b.worksScore - a.worksScore ||
      reliability.get(b.server.id)! - reliability.get(a.server.id)! ||
      (a.pingMs ?? Number.MAX_SAFE_INTEGER) - (b.pingMs ?? Number.MAX_SAFE_INTEGER) ||
      (a.server.id < b.server.id ? -1 : a.server.id > b.server.id ? 1 : 0),
  );
}

/**
 * The movement of a replacement: the take-back postings of the blocked server's side, and the
 * amount to the replacement's operator (frozen like a reward), or kept by platform_revenue for a
 * premium replacement. platform_revenue's postings are netted into one; none when nothing moves.
 */
export function movePostings(
  takeBack: readonly Posting[],
  replacement: Pick<SubscribableServer, 'premium' | 'ownerUuid'>,
  amountMicro: bigint,
  frozenUntil: Date,
): Posting[] {
  if (amountMicro <= 0n) return [];
  const credit: Posting = replacement.premium
    ? { account: { system: 'platform_revenue' }, amountMicro }
    : {
        account: { wallet: 'node_wallet', ownerUuid: replacement.ownerUuid },
        amountMicro,
        frozenUntil,
      };
  const all = [...takeBack, credit];
  const isPlatform = (p: Posting) =>
    'system' in p.account && p.account.system === 'platform_revenue';
  const platform = all.filter(isPlatform).reduce((sum, p) => sum + p.amountMicro, 0n);
  const rest = all.filter((p) => !isPlatform(p) && p.amountMicro !== 0n);
  return platform === 0n
    ? rest
    : [...rest, { account: { system: 'platform_revenue' }, amountMicro: platform }];
}
