import { Logger } from '@nestjs/common';
import { WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server } from 'socket.io';

/** spec 01 §7: the realtime events the portal listens for. */
export const REALTIME_EVENTS = { serverListUpdated: 'server-list-updated' } as const;

/**
 * The socket.io gateway on the HTTP port (path /socket.io). Events carry no private data: a
 * client that hears one refetches through the authenticated REST API.
 */
@WebSocketGateway({ transports: ['polling', 'websocket'] })
export class RealtimeGateway {
  private readonly logger = new Logger('RealtimeGateway');

  @WebSocketServer()
  private server: Server | undefined;

  /** A server appeared, changed availability or address, or disappeared (issue 3 §3). */
  serverListUpdated(reason: 'added' | 'availability' | 'address' | 'removed'): void {
    this.server?.emit(REALTIME_EVENTS.serverListUpdated, { reason, at: new Date().toISOString() });
    this.logger.debug({ reason }, 'server-list-updated');
  }
}
