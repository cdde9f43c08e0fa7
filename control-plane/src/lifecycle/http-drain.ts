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
  private sweep: NodeJS.Timeout | null = null;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => this.open.delete(socket));
    });
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.markClose && !response.headersSent) response.setHeader('Connection', 'close');
    });
  }

  /** Connections open now (HTTP and upgraded). */
  get connections(): number {
    return this.open.size;
  }

  draining(): void {
    this.markClose = true;
  }

  stop(): Promise<void> {
    this.markClose = true;
    return new Promise<void>((resolve) => {
      // Stops accepting, shuts the idle connections (Node >= 19), and calls back once every
      // connection is closed (at once, with an error, if it never listened).
      this.server.close(() => {
        this.stopSweep();
        resolve();
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
