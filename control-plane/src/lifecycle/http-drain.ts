import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { DrainParticipant } from './drain-coordinator';

/** While stopping, how often connections that became idle without `Connection: close` are shut. */
const IDLE_SWEEP_MS = 100;

/**
 * The HTTP server's part of a drain. Keep-alive connections end on the server's terms, never with
 * a reset mid-request: from the drain's start every response carries `Connection: close` (Node
 * closes the connection once it is sent, and the client's next request opens a new one, through
 * the balancer, which by then sends it elsewhere). At stop the listener closes and connections
 * with no request in hand are shut; the rest close after their last response. Upgraded
 * (WebSocket) connections are the realtime gateway's to close. `force` destroys what is left.
 *
 * Installed after the app's init(): socket.io wraps the 'request' listeners it finds when it
 * attaches, and this one must see its polling requests as well.
 */
export class HttpDrain implements DrainParticipant {
  readonly name = 'http';
  private markClose = false;
  private readonly open = new Set<Socket>();
  /** Responses not yet sent: one whose headers are still to go says Connection: close too. */
  private readonly unanswered = new Set<ServerResponse>();
  private sweep: NodeJS.Timeout | null = null;
  /** Set by stop(): resolves it once the listener is closed and the last connection too. */
  private settle: (() => void) | null = null;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => {
        this.open.delete(socket);
        this.settle?.();
      });
    });
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.markClose) response.setHeader('Connection', 'close');
      this.unanswered.add(response);
      response.once('close', () => this.unanswered.delete(response));
    });
  }

  /** Connections open now (HTTP and upgraded). */
  get connections(): number {
    return this.open.size;
  }

  draining(): void {
    this.markClose = true;
    for (const response of this.unanswered) {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    }
  }

  stop(): Promise<void> {
    if (!this.markClose) this.draining();
    return new Promise<void>((resolve) => {
      let listenerClosed = false;
      this.settle = () => {
        if (!listenerClosed || this.open.size > 0) return;
        this.settle = null;
        this.stopSweep();
        resolve();
      };
      // Stops accepting and shuts the idle connections (Node >= 19); calls back at once, with an
      // error, when it never listened.
      this.server.close(() => {
        listenerClosed = true;
        this.settle?.();
      });
      // A response whose headers went out before the drain did not say `Connection: close`:
      // its connection turns idle after it, and is shut then.
      this.sweep = setInterval(() => this.server.closeIdleConnections(), IDLE_SWEEP_MS);
      this.sweep.unref();
    });
  }

  force(): void {
    this.stopSweep();
    this.server.closeAllConnections();
    for (const socket of this.open) socket.destroy();
  }

  private stopSweep(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
  }
}
