import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  INBOUND_PLAN_MESSAGES,
  type NodeTransport,
  PORT_REGENERATION_INTERVAL_S,
  type UpdateServerChanges,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { type ReliabilityView, viewReliability } from '../reliability/reliability';
import type { PlanNetwork, PlanSecurity, ServerEntity } from './entities/server.entity';
import { defaultSecurity, randomPlanPort, transportsOf } from './inbound-plan';
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

  /**
   * Node Configuration: the owner picks the transport among those the node's core
   * serves. The plan's revision is bumped and the node's WatchClients stream sends it at once
   * (with its client set); links and feeds follow the node's next report, sent when applied.
   */
  async changeTransport(
    ownerUuid: string,
    serverId: string,
    transport: NodeTransport,
  ): Promise<ServerEntity> {
    const current = await this.ownedServer(ownerUuid, serverId);
    if (current.source !== 'agent') throw new NodesException('not_an_agent_node');
    if (!(transportsOf(current.core) as string[]).includes(transport)) {
      throw new NodesException(
        'transport_unsupported',
        INBOUND_PLAN_MESSAGES.transportUnsupported(transport, current.core ?? 'v2ray'),
      );
    }
    const [security, network] = transport.split('/') as [PlanSecurity, PlanNetwork];
    const server = await this.transactions.run(async (tx) => {
      const changed = await this.repository.changeTransport(
        tx,
        ownerUuid,
        serverId,
        security,
        network,
        randomPlanPort(),
      );
      if (changed) await this.repository.announcePlan(tx, serverId);
      return changed;
    });
    if (!server) throw new NodesException('server_not_found');
    return server;
  }

  /**
   * The emergency port regeneration (docs/product/screens.md#dashboards-and-information-pages port management): a new random port of the
   * range, never the current one, at most once per PORT_REGENERATION_INTERVAL_S per server;
   * pushed to the node at once like a transport change. Clients pick it up on their next feed
   * refresh, once the node reported it.
   */
  async regeneratePort(ownerUuid: string, serverId: string): Promise<ServerEntity> {
    const current = await this.ownedServer(ownerUuid, serverId);
    if (current.source !== 'agent') throw new NodesException('not_an_agent_node');
    const now = this.clock.now();
    this.checkRegenerationInterval(current, now);
    const server = await this.regenerate(current, now, PORT_REGENERATION_INTERVAL_S);
    if (server) return server;
    // Nothing changed: the server went, or a concurrent regeneration (or change) came first.
    const after = await this.ownedServer(ownerUuid, serverId);
    this.checkRegenerationInterval(after, now);
    throw new NodesException('plan_changed');
  }

  /**
   * The same regeneration, triggered by reachability
   * (docs/reachability.md#automatic-port-regeneration): only while the owner allows it, at most
   * once per their chosen interval (never more often than the emergency regeneration's own
   * limit). Null when it is not due or not allowed, or when another change came first.
   */
  async regeneratePortWhenBlocked(serverId: string): Promise<ServerEntity | null> {
    const current = await this.repository.findServer(serverId);
    if (!current || current.source !== 'agent' || current.autoRegenerateS === null) return null;
    const intervalS = Math.max(current.autoRegenerateS, PORT_REGENERATION_INTERVAL_S);
    const now = this.clock.now();
    if (
      current.portRegeneratedAt &&
      current.portRegeneratedAt.getTime() + intervalS * 1000 > now.getTime()
    ) {
      return null;
    }
    return this.regenerate(current, now, intervalS);
  }

  /** The owner allows (a number of seconds) or stops (null) the automatic regeneration. */
  async setAutoRegeneration(
    ownerUuid: string,
    serverId: string,
    intervalS: number | null,
  ): Promise<ServerEntity> {
    const current = await this.ownedServer(ownerUuid, serverId);
    if (current.source !== 'agent') throw new NodesException('not_an_agent_node');
    await this.repository.updateOwnedServer(ownerUuid, serverId, { autoRegenerateS: intervalS });
    return this.ownedServer(ownerUuid, serverId);
  }

  private regenerate(
    current: ServerEntity,
    now: Date,
    intervalS: number,
  ): Promise<ServerEntity | null> {
    const previousPort = current.planPort;
    return this.transactions.run(async (tx) => {
      const changed = await this.repository.regeneratePort(tx, current.ownerUuid, current.id, {
        previousPort,
        port: randomPlanPort(previousPort ?? current.port),
        security: defaultSecurity(current.core),
        now,
        intervalS,
      });
      if (changed) await this.repository.announcePlan(tx, current.id);
      return changed;
    });
  }

  private checkRegenerationInterval(server: ServerEntity, now: Date): void {
    if (!server.portRegeneratedAt) return;
    const waitMs =
      server.portRegeneratedAt.getTime() + PORT_REGENERATION_INTERVAL_S * 1000 - now.getTime();
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new NodesException(
        'port_regeneration_too_soon',
        INBOUND_PLAN_MESSAGES.regenerationTooSoon(seconds),
        seconds,
      );
    }
  }

  /** The client places a server holds (paused ones too) and its client-set version. */
  clientSlots(serverId: string): Promise<{ allowed: number; version: string }> {
    return this.repository.clientSlots(serverId);
  }

  /**
   * Deletes an operator's own server; its agent is refused from then on. In the same
   * transaction, its clients' unused paid time is refunded and it leaves their subscriptions
   * (SERVER_DELETION). Its client set is locked first, as a purchase locks it, so
   * no purchase can slip in between the refunds and the delete.
   */
  async deleteServer(ownerUuid: string, serverId: string): Promise<boolean> {
    const result = await this.transactions.runRetrying(async (tx) => {
      if (!(await this.repository.lockOwnedServer(tx, ownerUuid, serverId))) {
        return { deleted: false, dropped: 0 };
      }
      const dropped = (await this.deletion?.beforeDelete(tx, serverId, this.clock.now())) ?? 0;
      await this.repository.deleteServer(tx, serverId);
      return { deleted: true, dropped };
    });
    if (result.deleted) this.realtime.serverListUpdated('removed');
    if (result.dropped > 0) this.realtime.serverListUpdated('withdrawn');
    return result.deleted;
  }

  /** The server's reliability now, as the dashboard and the market show it. */
  view(server: ServerEntity): ReliabilityView {
    return viewReliability(reliabilityStateOf(server), this.clock.now());
  }
}
