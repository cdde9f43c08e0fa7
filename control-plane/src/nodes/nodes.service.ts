import { Inject, Injectable, Optional } from '@nestjs/common';
import type { UpdateServerChanges } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { type ReliabilityView, viewReliability } from '../reliability/reliability';
import type { ServerEntity } from './entities/server.entity';
import { NodesException } from './nodes.exception';
import { NodesRepository } from './nodes.repository';
import { SERVER_DELETION, type ServerDeletion } from './server-deletion';
import { reliabilityStateOf } from './server-reliability';

/** The operator's servers: owner-scoped reads, Node Configuration changes, deletion. */
@Injectable()
export class NodesService {
  constructor(
    private readonly repository: NodesRepository,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly realtime: RealtimeGateway,
    @Optional() @Inject(SERVER_DELETION) private readonly deletion: ServerDeletion | null = null,
  ) {}

  /** The operator's servers, oldest first. */
  ownedServers(ownerUuid: string): Promise<ServerEntity[]> {
    return this.repository.listOwnedServers(ownerUuid);
  }

  /** One of the operator's own servers; another operator's is not found. */
  async ownedServer(ownerUuid: string, serverId: string): Promise<ServerEntity> {
    const server = await this.repository.findOwnedServer(ownerUuid, serverId);
    if (!server) throw new NodesException('server_not_found');
    return server;
  }

  /**
   * Node Configuration: the owner renames a server or says where it is. Another operator's
   * server is not found. The market shows name and country, so it hears about the change.
   */
  async updateServer(
    ownerUuid: string,
    serverId: string,
    changes: UpdateServerChanges,
  ): Promise<ServerEntity> {
    const columns: Partial<Pick<ServerEntity, 'name' | 'country' | 'location'>> = {};
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.country !== undefined) columns.country = changes.country;
    if (changes.location !== undefined) columns.location = changes.location;
    if (!(await this.repository.updateOwnedServer(ownerUuid, serverId, columns))) {
      throw new NodesException('server_not_found');
    }
    this.realtime.serverListUpdated('updated');
    return this.ownedServer(ownerUuid, serverId);
  }

  /** The client places a server holds (paused ones too) and its client-set version. */
  clientSlots(serverId: string): Promise<{ allowed: number; version: string }> {
    return this.repository.clientSlots(serverId);
  }

  /**
   * Deletes an operator's own server; its agent is refused from then on. In the same
   * transaction, its clients' unused paid time is refunded and it leaves their subscriptions
   * (issue 15 §7, SERVER_DELETION). Its client set is locked first, as a purchase locks it, so
   * no purchase can slip in between the refunds and the delete.
   */
  async deleteServer(ownerUuid: string, serverId: string): Promise<boolean> {
    const result = await this.transactions.runRetrying(async (tx) => {
      if (!(await this.repository.lockOwnedServer(tx, ownerUuid, serverId))) {
        return { deleted: false, withdrawn: 0 };
      }
      const withdrawn = (await this.deletion?.beforeDelete(tx, serverId, this.clock.now())) ?? 0;
      await this.repository.deleteServer(tx, serverId);
      return { deleted: true, withdrawn };
    });
    if (result.deleted) this.realtime.serverListUpdated('removed');
    if (result.withdrawn > 0) this.realtime.serverListUpdated('withdrawn');
    return result.deleted;
  }

  /** The server's reliability now, as the dashboard and the market show it. */
  view(server: ServerEntity): ReliabilityView {
    return viewReliability(reliabilityStateOf(server), this.clock.now());
  }
}
