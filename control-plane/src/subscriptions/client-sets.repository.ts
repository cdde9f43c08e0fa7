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

/**
 * `take` refused: the server does not exist, or its places are all taken. The database raised,
 * so the caller's transaction is aborted: it can only roll back (throw the domain's exception).
 */
export class ClientSetRefusal extends Error {
  constructor(
    readonly reason: 'server_not_found' | 'server_full',
    readonly serverId: string,
  ) {
    super(`${reason}: ${serverId}`);
  }
}

/**
 * The client-set capacity rule, in one place: `client_sets_take` (src/subscriptions/sql), which
 * the purchase runs inside `subscription_purchase` and anything else that gives a client places
 * (activation, a change of servers, a renewal that takes slots back) runs through `take`.
 */
@Injectable()
export class ClientSetsRepository {
  /**
   * Inside the caller's transaction: locks the servers' client sets in id order, refuses
   * (ClientSetRefusal) the first server, in the order given, that does not exist or whose places
   * (every client there, paused ones too) have reached its capacity; else adds `clientUuid` to
   * every set, bumps the changed sets' versions and notifies the nodes' channel at commit.
   * Answers the servers whose set changed (id order).
   */
  async take(
    manager: Transaction,
    places: readonly WantedPlace[],
    clientUuid: string,
  ): Promise<string[]> {
    if (places.length === 0) return [];
    try {
      const rows = await queryRows<{ changed: string[] }>(
        manager,
        `SELECT client_sets_take($1::jsonb, $2, $3) AS changed`,
        [JSON.stringify(places), clientUuid, CLIENT_SET_CHANNEL],
      );
      return rows[0]!.changed;
    } catch (error) {
      const state = sqlState(error);
      if (state === 'SCN04') throw new ClientSetRefusal('server_not_found', errorMessage(error));
      if (state === 'SCN09') throw new ClientSetRefusal('server_full', errorMessage(error));
      throw error;
    }
  }
}

/** The database's message (RAISE ... MESSAGE: here the refused server's id). */
function errorMessage(error: unknown): string {
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { message?: string }).message ?? '';
}
