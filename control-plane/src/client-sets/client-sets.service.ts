import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction-runner';
import { type ClientSet, ClientSetsRepository, type WantedPlace } from './client-sets.repository';

/**
 * Which client UUIDs each server lets in: changed by purchases, pauses and deletions
 * of subscriptions, read by the nodes' WatchClients streams.
 */
@Injectable()
export class ClientSetsService {
  constructor(private readonly repository: ClientSetsRepository) {}

  /** The server's enabled clients and the set's version; null when the server is gone. */
  clientSet(serverId: string): Promise<ClientSet | null> {
    return this.repository.clientSet(serverId);
  }

  /** Sets the client UUIDs allowed on a server and pushes them to the node. */
  setAllowedClients(serverId: string, clientUuids: readonly string[]): Promise<string> {
    return this.repository.replaceClientSet(serverId, clientUuids);
  }

  /**
   * Gives one client a place on each server, or refuses (`ClientSetRefusal`: a server gone or
   * full, by its tier's capacity) inside the caller's transaction: the capacity rule
   * (`client_sets_take`) that purchases run too. Answers the servers whose set changed.
   */
  take(tx: Transaction, places: readonly WantedPlace[], clientUuid: string): Promise<string[]> {
    return this.repository.take(tx, places, clientUuid);
  }

  /**
   * Allows (or takes off) one subscription's UUID on its servers inside the caller's
   * transaction; the nodes' WatchClients streams push the new sets when it commits.
   */
  addClients(tx: Transaction, serverIds: readonly string[], clientUuid: string) {
    return this.repository.addClients(tx, serverIds, clientUuid);
  }

  removeClients(tx: Transaction, serverIds: readonly string[], clientUuid: string) {
    return this.repository.removeClients(tx, serverIds, clientUuid);
  }

  /** Holds the client's slots but keeps it off the nodes (a paused subscription). */
  disableClients(tx: Transaction, serverIds: readonly string[], clientUuid: string) {
    return this.repository.setClientsEnabled(tx, serverIds, clientUuid, false);
  }

  /** Lets a client that kept its slots back onto the nodes. */
  enableClients(tx: Transaction, serverIds: readonly string[], clientUuid: string) {
    return this.repository.setClientsEnabled(tx, serverIds, clientUuid, true);
  }
}
