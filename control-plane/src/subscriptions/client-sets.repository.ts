import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { queryRows, sqlState } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { CLIENT_SET_CHANNEL } from '../nodes/nodes.repository';

/** A server to take a place on; without `capacity`, its tier's (VPS_TIERS, in SQL market_capacity). */
export interface WantedPlace {
  id: string;
  capacity?: number;
}

export type TakeOutcome =
  /** The client is on every server; the sets that changed get a new version and a NOTIFY at commit. */
  | { status: 'taken'; changedServers: string[] }
  /** Refusals: the caller's transaction is aborted (the database raised), so it can only roll back. */
  | { status: 'server_not_found'; serverId: string }
  | { status: 'server_full'; serverId: string };

/**
 * The client-set capacity rule, in one place: `client_sets_take` (src/subscriptions/sql), which
 * the purchase runs inside `subscription_purchase` and anything else that gives a client places
 * (activation, a change of servers, a renewal that takes slots back) runs through `take`.
 */
@Injectable()
export class ClientSetsRepository {
  /**
   * Inside the caller's transaction: locks the servers' client sets in id order, refuses the
   * first server (in the order given) that does not exist or whose places (every client there,
   * paused ones too) have reached its capacity, else adds `clientUuid` to every set, bumps the
   * changed sets' versions and notifies the nodes' channel at commit.
   */
  async take(
    manager: Transaction,
    places: readonly WantedPlace[],
    clientUuid: string,
  ): Promise<TakeOutcome> {
    if (places.length === 0) return { status: 'taken', changedServers: [] };
    try {
      const rows = await queryRows<{ changed: string[] }>(
        manager,
        `SELECT client_sets_take($1::jsonb, $2, $3) AS changed`,
        [JSON.stringify(places), clientUuid, CLIENT_SET_CHANNEL],
      );
      return { status: 'taken', changedServers: rows[0]!.changed };
    } catch (error) {
      const state = sqlState(error);
      const serverId = errorMessage(error);
      if (state === 'SCN04') return { status: 'server_not_found', serverId };
      if (state === 'SCN09') return { status: 'server_full', serverId };
      throw error;
    }
  }
}

/** The database's message (RAISE ... MESSAGE: here the refused server's id). */
function errorMessage(error: unknown): string {
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { message?: string }).message ?? '';
}
