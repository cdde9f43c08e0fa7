import type { ProxyCoreKind } from '@scn/proto';
import { type Clock, systemClock } from '../backoff';
import type { CoreApiClient } from './core-api';
import {
  auditCoreUsers,
  type CoreAuditResult,
  type CoreResetReason,
  readRemovedBaselines,
  type RemovedClients,
} from './core-audit';
import { VLESS_INBOUND_TAG } from './core-config';
import { ProxyCoreException } from './proxy-core.exception';

/** What the reconciler asks of the core's API. */
export type CoreUsersApi = Pick<
  CoreApiClient,
  'addUser' | 'removeUser' | 'userTraffic' | 'inboundUserEmails'
>;

export type UserAuditFindings = Pick<
  CoreAuditResult,
  'mechanism' | 'usersSeen' | 'foreignRemoved' | 'restored' | 'revokedStillConnected' | 'reset'
>;

export interface UserSetReconcilerOptions {
  kind: ProxyCoreKind;
  /** The inbound's VLESS flow, read at every add (a new inbound may change it). */
  flow: () => string;
  /**
   * The least time between two restarts that cut a revoked client's open connections (see
   * CoreTimings).
   */
  revocationCutMinIntervalMs: number;
  clock?: Clock;
}

/**
 * Keeps the running core's VLESS users equal to the desired set through its API: diffs the
 * desired set against what was applied, re-adds every user after a (re)start (users added
 * through the API vanish when the core restarts), and audits the core's real users
 * (core-audit.ts). It never starts or stops the core: callers run it inside the core's queue
 * and restart the core when an audit asks for a reset.
 */
export class UserSetReconciler {
  /** What the control plane wants, normalized. */
  private desiredUuids: readonly string[] = [];
  /** What the running core has, as far as the agent knows. */
  private applied = new Set<string>();
  /**
   * Clients the agent removed since the core started, with their traffic counters just after
   * the removal (null until read). v2ray keeps a removed user's counters, and they still move
   * while connections the user opened before the removal carry traffic (see audit()).
   */
  private readonly removedSinceStart: RemovedClients = new Map();
  private lastRevocationCutAt: number | null = null;
  private readonly clock: Clock;

  constructor(private readonly options: UserSetReconcilerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  get desired(): readonly string[] {
    return this.desiredUuids;
  }

  /** Replaces the desired set (normalized by the caller); apply() makes the core follow. */
  setDesired(desired: readonly string[]): void {
    this.desiredUuids = [...desired];
  }

  /** The users the agent believes the core has, sorted (status, tests). */
  appliedUuids(): string[] {
    return [...this.applied].sort();
  }

  /**
   * A core just started from a config that lists the desired users: re-adding them through the
   * API confirms the core really has them (an existing user counts as success). Throws, like
   * apply(), when some add failed.
   */
  async coreStarted(api: CoreUsersApi): Promise<void> {
    this.applied = new Set(this.desiredUuids);
    await this.apply(api, true);
    // A new core has no counters of users removed from the one before.
    this.removedSinceStart.clear();
  }

  /**
   * Diffs the desired set against `applied` and applies the difference; `all` re-adds every
   * desired user. Every success updates `applied` at once, so after a failure the next
   * reconcile retries exactly what is missing.
   */
  async apply(api: CoreUsersApi, all = false): Promise<void> {
    const desired = new Set(this.desiredUuids);
    const toAdd = this.desiredUuids.filter((uuid) => all || !this.applied.has(uuid));
    const toRemove = [...this.applied].filter((uuid) => !desired.has(uuid));
    const failures: string[] = [];
    for (const uuid of toAdd) {
      try {
        await api.addUser(VLESS_INBOUND_TAG, uuid, this.options.flow());
        this.applied.add(uuid);
        this.removedSinceStart.delete(uuid);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    for (const uuid of toRemove) {
      try {
        await api.removeUser(VLESS_INBOUND_TAG, uuid);
        this.applied.delete(uuid);
        this.removedSinceStart.set(uuid, null);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (toRemove.length > 0) await readRemovedBaselines(api, this.removedSinceStart);
    if (failures.length > 0) {
      throw new ProxyCoreException(
        'core_api_failed',
        `${failures.length} user change(s) failed: ${failures[0]}`,
      );
    }
  }

  /**
   * One audit pass over the core's users (auditCoreUsers): removes users the agent did not add
   * and adds back desired users the core lost. `reset` says whether the core must restart from
   * its config file: someone else used the API, or a revoked client's open connections still
   * carry traffic (at most once per revocationCutMinIntervalMs, as each restart also drops every
   * paying client's connections for a moment).
   */
  async audit(api: CoreUsersApi): Promise<UserAuditFindings> {
    const findings = await auditCoreUsers({
      kind: this.options.kind,
      api,
      desired: this.desiredUuids,
      flow: this.options.flow(),
      removedSinceStart: this.removedSinceStart,
      applied: this.applied,
    });
    let reset: CoreResetReason | null = null;
    if (findings.foreignRemoved.length > 0) reset = 'foreign_users';
    else if (findings.revokedStillConnected.length > 0 && this.mayCutRevoked()) {
      reset = 'revoked_client_still_connected';
      this.lastRevocationCutAt = this.clock.now();
    }
    return { ...findings, reset };
  }

  private mayCutRevoked(): boolean {
    return (
      this.lastRevocationCutAt === null ||
      this.clock.now() - this.lastRevocationCutAt >= this.options.revocationCutMinIntervalMs
    );
  }
}
