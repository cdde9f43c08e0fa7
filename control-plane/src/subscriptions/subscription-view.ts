import {
  type Subscription,
  SUBSCRIPTION_ROUTES,
  subscriptionFileName,
  subscriptionRawFileName,
  SERVER_DROP_REASON_TEXT,
  type DroppedServer,
} from '@scn/proto';
import { sslNumber } from '../common/money';
import { subscriptionName, subscriptionServers } from './subscription-links';
import { hourlyPriceMicro, pauseAllowance, periodPriceMicro } from './subscription-pricing';
import type { SubscribableServer, SubscriptionRecord } from './subscriptions.repository';
import type { ServerDropRecord } from './server-drops.repository';
import type { ReplacementRecord } from './server-replacements.repository';

/** What happened to a subscription's servers: drops and this period's replacements. */
export interface ServerHistory {
  dropped?: readonly ServerDropRecord[];
  replacements?: readonly ReplacementRecord[];
}

/** What a view needs beside the rows: the moment, the launch period and the URLs. */
export interface ViewContext {
  now: Date;
  /** In the launch period (every price 0). */
  free: boolean;
  publicUrl: string;
  /** The subscription URL, or '' when its secret cannot be shown (sealed under another key). */
  subscriptionUrl: string;
}

/** Money in micro-SSL as the API writes it (a decimal string). */
export function micro(value: bigint): string {
  return value.toString();
}

/** Paid time left, and when it ends: a client pause stops the clock; unpaid time is 0. */
export function timeLeft(
  record: SubscriptionRecord,
  now: Date,
): { remainingMs: number; expirationDate: Date } {
  if (record.status === 'active') {
    return {
      remainingMs: Math.max(0, record.expiresAt.getTime() - now.getTime()),
      expirationDate: record.expiresAt,
    };
  }
  if (record.status === 'paused' && record.pauseReason === 'user' && record.pausedAt) {
    const remainingMs = Math.max(0, record.expiresAt.getTime() - record.pausedAt.getTime());
    return { remainingMs, expirationDate: new Date(now.getTime() + remainingMs) };
  }
  if (record.status === 'paused' && record.pausedAt) {
    return { remainingMs: 0, expirationDate: record.pausedAt };
  }
  return { remainingMs: 0, expirationDate: record.expiresAt };
}

/** docs/product/records.md#dashboard-records Subscription, as the lists and every answer about one show it. */
export function subscriptionView(
  record: SubscriptionRecord,
  servers: readonly SubscribableServer[],
  pauseStarts: readonly Date[],
  context: ViewContext,
  history: ServerHistory = {},
): Subscription {
  const { now, free, publicUrl } = context;
  const linked = subscriptionServers(servers, record.vlessUuid);
  const links = linked.map((server) => server.vlessString).filter(Boolean);
  const first = links[0] ?? '';
  const period = periodPriceMicro(record.billingCycle, servers, free);
  const { remainingMs, expirationDate } = timeLeft(record, now);
  const owner = record.ownerUuid;
  const fileName = subscriptionFileName(record.id);
  const rawFileName = subscriptionRawFileName(record.id);
  const userPause = record.status === 'paused' && record.pauseReason === 'user';
  const activationPrice = record.status === 'active' || userPause ? 0n : period;
  const status = record.status === 'deleted' ? 'expired' : record.status;
  const hours = Math.floor(remainingMs / 3_600_000);
  return {
    id: record.id,
    uuid: record.vlessUuid,
    name: subscriptionName(servers.length),
    status,
    timestamp: record.createdAt.toISOString(),
    created: record.createdAt.toISOString(),
    billingCycle: record.billingCycle,
    billingAmount: sslNumber(period),
    billingAmountMicro: micro(period),
    hourlyPrice: sslNumber(hourlyPriceMicro(servers, free)),
    hourlyPriceMicro: micro(hourlyPriceMicro(servers, free)),
    expirationDate: expirationDate.toISOString(),
    remainingHours: hours,
    hoursRemaining: hours,
    remainingSeconds: Math.floor(remainingMs / 1000),
    serverCount: servers.length,
    serverIds: servers.map((server) => server.id),
    servers: linked,
    vlessString: first,
    vlessStrings: links,
    vlessLink: first,
    connectionString: first,
    vlessConnectionString: first,
    fileName,
    rawFileName,
    groupFileUrl: `${publicUrl}${SUBSCRIPTION_ROUTES.download(owner, fileName)}`,
    rawFileUrl: `${publicUrl}${SUBSCRIPTION_ROUTES.download(owner, rawFileName)}`,
    subscriptionUrl: context.subscriptionUrl,
    qrCodesUrl: `${publicUrl}${SUBSCRIPTION_ROUTES.qrCodes(owner, record.id)}`,
    autoRenew: record.autoRenew,
    pausedAt: record.pausedAt?.toISOString() ?? null,
    pauseEndsAt: userPause ? (record.pauseEndsAt?.toISOString() ?? null) : null,
    pauseReason: record.status === 'paused' ? record.pauseReason : null,
    activationPrice: sslNumber(activationPrice),
    activationPriceMicro: micro(activationPrice),
    pauseAllowance: pauseAllowance(record.billingCycle, pauseStarts, now),
    withdrawnServers: (history.dropped ?? []).map(droppedServerView),
    replacements: (history.replacements ?? []).map((replacement) => ({
      blockedServerName: replacement.blockedServerName,
      replacementServerName: replacement.replacementServerName,
      country: replacement.country,
      asn: replacement.asn,
      replacedAt: replacement.replacedAt.toISOString(),
    })),
  };
}

/** A dropped server, its reason and its refund, as the dashboard shows them. */
function droppedServerView(record: ServerDropRecord): DroppedServer {
  return {
    id: record.serverId,
    name: record.serverName,
    reason: record.reason,
    reasonText: SERVER_DROP_REASON_TEXT[record.reason],
    unableSince: record.unableSince.toISOString(),
    withdrawnAt: record.droppedAt.toISOString(),
    refund: sslNumber(record.refundMicro),
    refundMicro: micro(record.refundMicro),
  };
}
