import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { createServer, isIP, type Server, type Socket as TcpSocket } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { AppConfig, NodeDnsSettings } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { answerMessage, type NodeZone, type Transport } from './dns-answers';
import { NodeAddressCache } from './node-address-cache';

/**
 * Bounds on what one source can make this server do at once. Nothing is rate-limited over time
 * (a CA's resolvers may ask many times while validating): a source with this many questions
 * still unanswered has the next ones dropped, and resolvers ask again.
 */
export const MAX_PENDING_PER_SOURCE = 32;
const MAX_PENDING = 1024;
export const MAX_TCP_CONNECTIONS_PER_SOURCE = 8;
const MAX_TCP_CONNECTIONS = 512;
/** RFC 7766 suggests a few seconds; a connection with nothing to ask is closed after this. */
const TCP_IDLE_MS = 10_000;

/**
 * The authoritative DNS server of the platform's node domain (SCN_NODE_DOMAIN), on UDP and TCP
 * at SCN_DNS_LISTEN: it publishes each node's public address under its name, so the node's agent
 * can obtain a publicly trusted certificate (docs/operators.md#node-names-control-plane-for-publicly-trusted-certificates). Every replica can run
 * one: each answers from the database.
 */
@Injectable()
export class NodeDnsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NodeDnsServer');
  private udp: Socket | null = null;
  private tcp: Server | null = null;
  private readonly connections = new Set<TcpSocket>();
  private readonly pendingBySource = new Map<string, number>();
  private pending = 0;
  private readonly zone: NodeZone | null;
  private boundPort = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cache: NodeAddressCache,
  ) {
    const settings = config.nodeDns;
    this.zone = settings ? zoneOf(settings) : null;
  }

  /** The UDP and TCP port bound (SCN_DNS_LISTEN with port 0 picks a free one, for tests). */
  get port(): number {
    return this.boundPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    const listen = this.config.nodeDns?.listen;
    if (!this.zone || !listen) return;
    const zone = this.zone;
    // With port 0 the UDP socket picks a free port that TCP may find taken: pick again.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.bind(zone, listen.host, listen.port);
        break;
      } catch (error) {
        await this.onApplicationShutdown();
        if (listen.port !== 0 || attempt === 5) throw error;
      }
    }
    this.logger.log(
      { zone: zone.domain, host: listen.host, port: this.boundPort },
      'Node DNS server listening (UDP and TCP)',
    );
  }

  /** UDP on `port`, then TCP on the port UDP got (resolvers retry a truncated answer there). */
  private async bind(zone: NodeZone, host: string, port: number): Promise<void> {
    const udp = createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
    this.udp = udp;
    udp.on('message', (message, peer) => this.onDatagram(udp, zone, message, peer));
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(port, host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    // A send that fails (the peer vanished) must not stop the server.
    udp.on('error', (error) => this.logger.warn({ error: error.message }, 'DNS UDP error'));
    this.boundPort = udp.address().port;
    const tcp = createServer((socket) => this.onConnection(socket, zone));
    tcp.maxConnections = MAX_TCP_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(this.boundPort, host, () => {
        tcp.off('error', reject);
        resolve();
      });
    });
    this.tcp = tcp;
  }

  async onApplicationShutdown(): Promise<void> {
    const { udp, tcp } = this;
    this.udp = null;
    this.tcp = null;
    for (const socket of this.connections) socket.destroy();
    if (udp) {
      await new Promise<void>((resolve) => {
        try {
          udp.close(() => resolve());
        } catch {
          // Never bound, or closed already.
          resolve();
        }
      });
    }
    if (tcp) await new Promise<void>((resolve) => tcp.close(() => resolve()));
  }

  /** Counts a question from `source`; false (drop it) when the source or the server is full. */
  private admit(source: string): boolean {
    const count = this.pendingBySource.get(source) ?? 0;
    if (count >= MAX_PENDING_PER_SOURCE || this.pending >= MAX_PENDING) return false;
    this.pendingBySource.set(source, count + 1);
    this.pending += 1;
    return true;
  }

  private release(source: string): void {
    const count = (this.pendingBySource.get(source) ?? 1) - 1;
    if (count <= 0) this.pendingBySource.delete(source);
    else this.pendingBySource.set(source, count);
    this.pending -= 1;
  }

  private answer(zone: NodeZone, message: Buffer, transport: Transport): Promise<Buffer | null> {
    return answerMessage(message, transport, zone, (name) => this.cache.lookup(name));
  }

  private onDatagram(udp: Socket, zone: NodeZone, message: Buffer, peer: RemoteInfo): void {
    if (!this.admit(peer.address)) return;
    this.answer(zone, message, 'udp')
      .then((reply) => {
        if (reply && this.udp === udp) udp.send(reply, peer.port, peer.address);
      })
      .catch((error: unknown) => this.logger.warn({ error: String(error) }, 'DNS answer failed'))
      .finally(() => this.release(peer.address));
  }

  /** RFC 1035 §4.2.2: each message prefixed by its length; answered one after another. */
  private onConnection(socket: TcpSocket, zone: NodeZone): void {
    const source = socket.remoteAddress ?? '';
    const fromSource = [...this.connections].filter((s) => s.remoteAddress === source).length;
    if (!this.tcp || fromSource >= MAX_TCP_CONNECTIONS_PER_SOURCE) {
      socket.destroy();
      return;
    }
    this.connections.add(socket);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('close', () => this.connections.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    let chain = Promise.resolve();
    socket.on('data', (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        if (!this.admit(source)) {
          // More questions in flight than a resolver needs: this connection is not one.
          socket.destroy();
          return;
        }
        chain = chain
          .then(() => this.answer(zone, message, 'tcp'))
          .then((reply) => {
            if (!reply || socket.destroyed) return;
            const prefix = Buffer.alloc(2);
            prefix.writeUInt16BE(reply.length, 0);
            socket.write(Buffer.concat([prefix, reply]));
          })
          .catch(() => {
            socket.destroy();
          })
          .finally(() => this.release(source));
      }
    });
  }
}

function zoneOf(settings: NodeDnsSettings): NodeZone {
  return {
    domain: settings.domain,
    nameServers: settings.nameServers,
    hostmaster: settings.hostmaster,
    // Changes with each start; the zone has no secondaries that would need more.
    serial: Math.floor(Date.now() / 1000) >>> 0,
  };
}
