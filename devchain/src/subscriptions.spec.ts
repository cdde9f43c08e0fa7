import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import WebSocket from 'ws';
import { startDevchain, type Devchain } from './index';

type Message = {
  id?: number;
  result?: unknown;
  method?: string;
  params?: { result: unknown; subscription: number };
};

// The PubSub wire format, read with a bare WebSocket client (what web3.js's confirmTransaction sends).
describe('devchain PubSub (WebSocket)', () => {
  let chain: Devchain;
  let socket: WebSocket;
  const messages: Message[] = [];

  beforeAll(async () => {
    chain = await startDevchain({ slotMs: 60_000, finalizeAfterSlots: 2 });
    socket = new WebSocket(chain.wsUrl);
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Message));
    await new Promise((resolve) => socket.once('open', resolve));
  });

  afterAll(async () => {
    socket.close();
    await chain.stop();
  });

  async function next(predicate: (message: Message) => boolean): Promise<Message> {
    for (let i = 0; i < 100; i++) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no such message');
  }

  it('should notify a signature subscription once when the transaction reaches its commitment', async () => {
    const connection = new Connection(chain.url, 'confirmed');
    const signature = await connection.requestAirdrop(
      Keypair.generate().publicKey,
      LAMPORTS_PER_SOL,
    );
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'signatureSubscribe',
        params: [signature, { commitment: 'finalized' }],
      }),
    );
    const subscription = (await next((message) => message.id === 1)).result as number;
    chain.advanceSlots(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages.some((message) => message.method === 'signatureNotification')).toBe(false);

    chain.advanceSlots(1);
    const notification = await next((message) => message.method === 'signatureNotification');
    expect(notification.params).toEqual({
      subscription,
      result: {
        context: { apiVersion: expect.any(String), slot: expect.any(Number) },
        value: { err: null },
      },
    });
    chain.advanceSlots(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages.filter((message) => message.method === 'signatureNotification')).toHaveLength(
      1,
    );
  });

  it('should answer the same PubSub on the RPC port itself', async () => {
    const same = new WebSocket(chain.url.replace('http', 'ws'));
    await new Promise((resolve) => same.once('open', resolve));
    const reply = new Promise<Message>((resolve) =>
      same.once('message', (data) => resolve(JSON.parse(String(data)) as Message)),
    );
    same.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'slotSubscribe', params: [] }));
    expect((await reply).result).toEqual(expect.any(Number));
    same.close();
  });
});
