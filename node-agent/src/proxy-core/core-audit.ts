import { realTimers, type Timers } from '../backoff';
import type { AgentConfigStore, CoreAuditSummary } from '../config/agent-config';
import type { ProxyCoreKind } from '@scn/proto';
import type { CoreApiClient } from './core-api';
import { VLESS_INBOUND_TAG } from './core-config';
import type { ProxyCore } from './proxy-core';

/**
 * Defence in depth behind the routing rules: whoever reaches the core's API can
 * add VLESS users of their own, and the agent used to diff only its own applied set, so such a
 * user outlived every subscription. The audit compares the core's real users with the desired
 * set and removes what the agent did not add. What each core lets it see:
 *
 * - Xray: HandlerService.GetInboundUsers lists every user of the inbound, whatever its level or
 *   email: the list is complete.
 * - v2ray 4.34: its HandlerService cannot list users. The per-user traffic counters
 *   (StatsService `user>>>EMAIL>>>traffic>>>...`) name every user that has carried traffic
 *   since the core started, at a level whose policy keeps user stats (level 0 here) and with a
 *   non-empty email. A user added with another level or no email, or never used, is invisible.
 *
 * Any foreign user is taken as proof that someone used the API, who may have done more than
 * add that user (users the counters cannot see, extra inbounds): the core is then restarted
 * from its config file, which holds exactly the desired users and nothing else.
 */

export type CoreAuditMechanism = 'xray_inbound_users' | 'v2ray_user_counters';

/** Why the audit restarted the core from its config file. */
export type CoreResetReason =
  'foreign_users' | 'revoked_client_still_connected' | 'network_changed';

export interface CoreAuditResult {
  /** When the audit finished (ISO 8601). */
  at: string;
  /** How the core's users were read; null when the audit could not run (`error` says why). */
  mechanism: CoreAuditMechanism | null;
  /** Users the core showed (v2ray: only those with counters). */
  usersSeen: number;
  /** Users the agent did not add, removed through the API. */
  foreignRemoved: string[];
  /** Desired users the core had lost (someone removed them), added back. */
  restored: string[];
  /** Clients the agent removed whose open connections still carried traffic. */
  revokedStillConnected: string[];
  /** The core was restarted from its config file, and why. */
  reset: CoreResetReason | null;
  error: string | null;
}

/**
 * The users the core has that the agent did not put there: neither desired nor removed by the
 * agent itself since the core started (v2ray keeps a removed user's counters until a restart).
 */
export function foreignUsers(
  observed: Iterable<string>,
  desired: ReadonlySet<string>,
  removedByAgent: ReadonlySet<string>,
): string[] {
  const foreign = new Set<string>();
  for (const email of observed) {
    const key = email.toLowerCase();
    if (!desired.has(key) && !removedByAgent.has(key)) foreign.add(email);
  }
  return [...foreign].sort();
}

/** Clients the agent removed since the core started, with their counters just after removal. */
export type RemovedClients = Map<string, { up: bigint; down: bigint } | null>;

export interface CoreUserAuditInput {
  kind: ProxyCoreKind;
  api: Pick<CoreApiClient, 'userTraffic' | 'inboundUserEmails' | 'removeUser' | 'addUser'>;
  /** The users the control plane wants, normalized. */
  desired: readonly string[];
  flow: string;
  /** Updated in place: a baseline not read yet is read now. */
  removedSinceStart: RemovedClients;
  /**
   * The users the agent believes the core has, updated in place. A desired user outside it is
   * one whose earlier add failed: adding it now is a late apply, not a restore.
   */
  applied: Set<string>;
}

/**
 * One pass over the core's users: removes foreign users, adds back lost desired ones, and names
 * the revoked clients whose counters moved since their removal (connections they opened before
 * it still carry traffic: the core never re-checks an open connection's user).
 */
export async function auditCoreUsers(
  input: CoreUserAuditInput,
): Promise<
  Pick<
    CoreAuditResult,
    'mechanism' | 'usersSeen' | 'foreignRemoved' | 'restored' | 'revokedStillConnected'
  >
> {
  const { api, removedSinceStart } = input;
  const xray = input.kind === 'xray';
  const counters = await api.userTraffic(false);
  const observed = xray
    ? await api.inboundUserEmails(VLESS_INBOUND_TAG)
    : counters.map((counter) => counter.clientUuid);
  // Xray lists only present users, so one the agent removed is not excused by it.
  const excused = xray ? new Set<string>() : new Set(removedSinceStart.keys());
  const foreignRemoved = foreignUsers(observed, new Set(input.desired), excused);
  for (const email of foreignRemoved) {
    // A failure (an empty email cannot be removed) is covered by the restart that follows.
    await api.removeUser(VLESS_INBOUND_TAG, email).catch(() => undefined);
  }
  const present = new Set(observed.map((email) => email.toLowerCase()));
  const restored: string[] = [];
  for (const uuid of input.desired) {
    // v2ray cannot list users: re-adding every desired one is how it finds lost ones.
    if (xray && present.has(uuid)) continue;
    const outcome = await api.addUser(VLESS_INBOUND_TAG, uuid, input.flow);
    if (outcome === 'added' && input.applied.has(uuid)) restored.push(uuid);
    input.applied.add(uuid);
  }
  const revokedStillConnected: string[] = [];
  for (const [uuid, baseline] of removedSinceStart) {
    const counter = counters.find((entry) => entry.clientUuid === uuid);
    const now = { up: counter?.uplinkBytes ?? 0n, down: counter?.downlinkBytes ?? 0n };
    if (baseline === null) removedSinceStart.set(uuid, now);
    else if (now.up > baseline.up || now.down > baseline.down) revokedStillConnected.push(uuid);
  }
  return {
    mechanism: xray ? 'xray_inbound_users' : 'v2ray_user_counters',
    usersSeen: observed.length,
    foreignRemoved,
    restored,
    revokedStillConnected,
  };
}

/** Reads the counters of clients just removed: the baseline later audits compare with. */
export async function readRemovedBaselines(
  api: Pick<CoreApiClient, 'userTraffic'>,
  removedSinceStart: RemovedClients,
): Promise<void> {
  try {
    const counters = await api.userTraffic(false);
    for (const [uuid, baseline] of removedSinceStart) {
      if (baseline !== null) continue;
      const counter = counters.find((entry) => entry.clientUuid === uuid);
      removedSinceStart.set(uuid, {
        up: counter?.uplinkBytes ?? 0n,
        down: counter?.downlinkBytes ?? 0n,
      });
    }
  } catch {
    // The next audit reads them instead.
  }
}

/** Whether an audit found anything worth keeping on record (status shows the last one). */
export function auditFoundSomething(result: CoreAuditResult): boolean {
  return (
    result.foreignRemoved.length > 0 ||
    result.restored.length > 0 ||
    result.revokedStillConnected.length > 0 ||
    result.reset !== null
  );
}

export function toAuditSummary(result: CoreAuditResult): CoreAuditSummary {
  return { ...result };
}

/** Every 30 s: a revoked client's open connections are cut within about that (docs/security.md). */
export const CORE_AUDIT_INTERVAL_MS = 30_000;

export interface CoreAuditSchedulerOptions {
  core: ProxyCore;
  store: AgentConfigStore;
  intervalMs?: number;
  timers?: Timers;
  log?: (message: string) => void;
}

/**
 * Runs the core's audit periodically (the first one at start, so a restart of the agent over a
 * core someone tampered with is caught at once) and records the outcome in the agent's config
 * file, where `scn-agent status` and `doctor` read it.
 */
export class CoreAuditScheduler {
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly timers: Timers;
  private readonly intervalMs: number;

  constructor(private readonly options: CoreAuditSchedulerOptions) {
    this.timers = options.timers ?? realTimers;
    this.intervalMs = options.intervalMs ?? CORE_AUDIT_INTERVAL_MS;
  }

  start(): void {
    this.stopped = false;
    void this.runOnce();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One audit now (tests, and the scheduled runs); never throws. */
  runOnce(): Promise<void> {
    if (this.running) return this.running;
    // An audit run by hand replaces the scheduled one: the next comes a full interval later.
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.running = this.auditAndRecord().finally(() => {
      this.running = null;
      if (!this.stopped) {
        this.timer = this.timers.setTimeout(() => void this.runOnce(), this.intervalMs);
      }
    });
    return this.running;
  }

  private async auditAndRecord(): Promise<void> {
    const audit = this.options.core.audit;
    if (!audit) return;
    let result: CoreAuditResult;
    try {
      result = await audit.call(this.options.core);
    } catch (error) {
      result = {
        at: new Date().toISOString(),
        mechanism: null,
        usersSeen: 0,
        foreignRemoved: [],
        restored: [],
        revokedStillConnected: [],
        reset: null,
        error: (error as Error).message,
      };
    }
    if (auditFoundSomething(result)) {
      this.options.log?.(
        `core audit: removed ${result.foreignRemoved.length} foreign user(s)` +
          `${result.foreignRemoved.length ? ` (${result.foreignRemoved.join(', ')})` : ''}, ` +
          `restored ${result.restored.length}, ` +
          `${result.revokedStillConnected.length} revoked client(s) still connected` +
          `${result.reset ? `; core restarted from its config (${result.reset})` : ''}`,
      );
    } else if (result.error) {
      this.options.log?.(`core audit failed: ${result.error}`);
    }
    const summary = toAuditSummary(result);
    await this.options.store
      .update((config) => ({
        ...config,
        lastCoreAudit: summary,
        ...(auditFoundSomething(result) ? { lastCoreAuditFinding: summary } : {}),
      }))
      .catch((error: Error) =>
        this.options.log?.(`recording the core audit failed: ${error.message}`),
      );
  }
}

const AUDIT_MECHANISM: Record<NonNullable<CoreAuditSummary['mechanism']>, string> = {
  xray_inbound_users: 'Xray user list',
  v2ray_user_counters: 'v2ray user counters',
};

/** One line for the last audit: when, how, and that it was clean or failed. */
export function describeAudit(audit: CoreAuditSummary | null): string {
  if (!audit) return 'none recorded (the daemon audits the core every 30 s while it runs)';
  if (audit.error) return `${audit.at} FAILED: ${audit.error}`;
  const how = audit.mechanism ? AUDIT_MECHANISM[audit.mechanism] : 'no mechanism';
  return `${audit.at} via ${how}, ${audit.usersSeen} user(s) seen`;
}

/** What an audit found and undid, in words; 'nothing' for a clean audit. */
export function describeFinding(audit: CoreAuditSummary | null): string {
  if (!audit) return 'nothing so far';
  const parts: string[] = [];
  if (audit.foreignRemoved.length > 0) {
    parts.push(`removed foreign user(s) ${audit.foreignRemoved.join(', ')}`);
  }
  if (audit.restored.length > 0) parts.push(`restored lost user(s) ${audit.restored.join(', ')}`);
  if (audit.revokedStillConnected.length > 0) {
    parts.push(`revoked client(s) still connected: ${audit.revokedStillConnected.join(', ')}`);
  }
  if (audit.reset)
    parts.push(`core restarted from its config (${audit.reset.replaceAll('_', ' ')})`);
  return parts.length > 0 ? `${audit.at}: ${parts.join('; ')}` : 'nothing';
}
