import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Chain, Commitment } from './chain';
import { RpcError, commitmentOf, configAt, contextOf, signatureAt } from './rpc-params';

interface SignatureSubscription {
  socket: WebSocket;
  signature: string;
  commitment: Commitment;
}

const COMMITMENT_RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/**
 * The PubSub methods `Connection.confirmTransaction` relies on (signatureSubscribe, slotSubscribe
 * and their unsubscribes), over WebSocket. A signature subscription fires once, when the
 * transaction reaches the requested commitment (at once if it already has), then ends, as on
 * real nodes.
 */
export class Subscriptions {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly signatures = new Map<number, SignatureSubscription>();
  private readonly slots = new Map<number, WebSocket>();
  private nextId = 1;

  constructor(private readonly chain: Chain) {
    this.wss.on('connection', (socket) => {
      socket.on('message', (data) => this.onMessage(socket, String(data)));
      socket.on('close', () => this.dropSocket(socket));
    });
    chain.on('slot', (slot: number) => {
      this.checkSignatures();
      for (const [id, socket] of this.slots)
        this.notify(socket, 'slotNotification', id, {
          parent: Math.max(0, slot - 1),
          root: chain.slotAt('finalized'),
          slot,
        });
    });
    chain.on('transaction', () => this.checkSignatures());
  }

  /** Serves WebSocket upgrades of an HTTP server (the RPC port and the RPC port + 1). */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws)),
    );
  }

  close(): void {
    for (const socket of this.wss.clients) socket.terminate();
    this.wss.close();
  }

  private onMessage(socket: WebSocket, text: string): void {
    let id: unknown = null;
    try {
      const request = JSON.parse(text) as { id?: unknown; method?: unknown; params?: unknown };
      id = request.id ?? null;
      const params = Array.isArray(request.params) ? request.params : [];
      const result = this.call(socket, String(request.method), params);
      socket.send(JSON.stringify({ jsonrpc: '2.0', result, id }));
      this.checkSignatures();
    } catch (error) {
      const rpc =
        error instanceof RpcError
          ? error
          : error instanceof SyntaxError
            ? new RpcError(-32700, 'Parse error')
            : new RpcError(-32603, 'Internal error');
      socket.send(
        JSON.stringify({ jsonrpc: '2.0', error: { code: rpc.code, message: rpc.message }, id }),
      );
    }
  }

  private call(socket: WebSocket, method: string, params: unknown[]): unknown {
    switch (method) {
      case 'signatureSubscribe': {
        const signature = signatureAt(params, 0);
        const commitment = commitmentOf(configAt(params, 1));
        const id = this.nextId++;
        this.signatures.set(id, { socket, signature, commitment });
        return id;
      }
      case 'signatureUnsubscribe':
        return this.signatures.delete(Number(params[0]));
      case 'slotSubscribe': {
        const id = this.nextId++;
        this.slots.set(id, socket);
        return id;
      }
      case 'slotUnsubscribe':
        return this.slots.delete(Number(params[0]));
      default:
        throw new RpcError(-32601, 'Method not found');
    }
  }

  private checkSignatures(): void {
    for (const [id, subscription] of this.signatures) {
      const record = this.chain.transaction(subscription.signature, 'processed');
      if (!record) continue;
      const reached = COMMITMENT_RANK[this.chain.confirmationStatus(record)];
      if (reached < COMMITMENT_RANK[subscription.commitment]) continue;
      this.signatures.delete(id);
      this.notify(subscription.socket, 'signatureNotification', id, {
        context: contextOf(this.chain, subscription.commitment),
        value: { err: record.err },
      });
    }
  }

  private notify(socket: WebSocket, method: string, subscription: number, result: unknown): void {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify({ jsonrpc: '2.0', method, params: { result, subscription } }));
  }

  private dropSocket(socket: WebSocket): void {
    for (const [id, subscription] of this.signatures)
      if (subscription.socket === socket) this.signatures.delete(id);
    for (const [id, slotSocket] of this.slots) if (slotSocket === socket) this.slots.delete(id);
  }
}
