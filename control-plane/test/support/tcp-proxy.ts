import net from 'node:net';

/**
 * A TCP proxy on loopback in front of PostgreSQL that a test controls: `down()` resets every
 * connection and refuses new ones (a stopped or unreachable server), `freeze()` stops forwarding
 * without closing anything (a hung server: nothing answers, nothing fails), `up()` restores.
 */
export class TcpProxy {
  private mode: 'up' | 'down' | 'frozen' = 'up';
  private readonly sockets = new Set<net.Socket>();
  /** Connections accepted while frozen, forwarded once up again. */
  private held: net.Socket[] = [];
  /** Connections refused while down (each a reconnect attempt). */
  refused = 0;

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server, target);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  down(): void {
    this.mode = 'down';
    for (const socket of [...this.sockets, ...this.held]) socket.resetAndDestroy();
    this.sockets.clear();
    this.held = [];
  }

  freeze(): void {
    this.mode = 'frozen';
    for (const socket of this.sockets) socket.pause();
  }

  up(): void {
    this.mode = 'up';
    for (const socket of this.sockets) socket.resume();
    for (const client of this.held.splice(0)) this.forward(client);
  }

  async close(): Promise<void> {
    this.down();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'down') {
      this.refused += 1;
      client.resetAndDestroy();
    } else if (this.mode === 'frozen') {
      client.pause();
      this.held.push(client);
    } else {
      this.forward(client);
    }
  }

  private forward(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => {
      upstream.destroy();
      this.sockets.delete(client);
    });
    upstream.on('close', () => {
      client.destroy();
      this.sockets.delete(upstream);
    });
    this.sockets.add(client);
    this.sockets.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  }
}
