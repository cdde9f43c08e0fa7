import type { FeedSnapshot, SubscribableServer } from '../subscriptions/subscriptions.repository';
import { FeedMemory, NETWORK_STATES_TTL_MS, type RememberedFeed } from './feed-memory';

function remembered(id: string, servers: string[], validUntil = Infinity): RememberedFeed {
  return {
    snapshot: { record: { id } } as FeedSnapshot,
    servers: servers.map((server) => ({ id: server }) as SubscribableServer),
    validUntil,
  };
}

describe('FeedMemory', () => {
  const limits = { subscriptions: 10, networks: 10 };

  it('should drop a subscription named by a notification, and no other', () => {
    const memory = new FeedMemory(limits);
    memory.remember('h1', remembered('s1', ['v1']), memory.epoch);
    memory.remember('h2', remembered('s2', ['v2']), memory.epoch);
    memory.notified('s:s9,s1');
    expect(memory.feed('h1', 0)).toBeUndefined();
    expect(memory.feed('h2', 0)).toBeDefined();
  });

  it('should drop the feeds holding a server and every network state when a server changes', () => {
    const memory = new FeedMemory(limits);
    memory.remember('h1', remembered('s1', ['v1', 'v2']), memory.epoch);
    memory.remember('h2', remembered('s2', ['v3']), memory.epoch);
    memory.rememberStates('IR|1|v3', new Map([['v3', 'works']]), 0, memory.epoch);
    memory.notified('v:v2');
    expect(memory.feed('h1', 0)).toBeUndefined();
    expect(memory.feed('h2', 0)).toBeDefined();
    expect(memory.networkStates('IR|1|v3', 0)).toBeUndefined();
  });

  it('should drop network states on a reachability change and everything on a *', () => {
    const memory = new FeedMemory(limits);
    memory.remember('h1', remembered('s1', ['v1']), memory.epoch);
    memory.rememberStates('IR|1|v1', new Map(), 0, memory.epoch);
    memory.notified('r');
    expect(memory.networkStates('IR|1|v1', 0)).toBeUndefined();
    expect(memory.feed('h1', 0)).toBeDefined();
    memory.notified('*');
    expect(memory.feed('h1', 0)).toBeUndefined();
  });

  it('should not keep a read that a notification overtook', () => {
    const memory = new FeedMemory(limits);
    const epoch = memory.epoch;
    memory.notified('s:other');
    memory.remember('h1', remembered('s1', ['v1']), epoch);
    memory.rememberStates('k', new Map(), 0, epoch);
    expect(memory.feed('h1', 0)).toBeUndefined();
    expect(memory.networkStates('k', 0)).toBeUndefined();
  });

  it('should forget a feed once its paid time is over, and network states after their TTL', () => {
    const memory = new FeedMemory(limits);
    memory.remember('h1', remembered('s1', ['v1'], 1_000), memory.epoch);
    memory.rememberStates('k', new Map(), 0, memory.epoch);
    expect(memory.feed('h1', 999)).toBeDefined();
    expect(memory.feed('h1', 1_000)).toBeUndefined();
    expect(memory.networkStates('k', NETWORK_STATES_TTL_MS - 1)).toBeDefined();
    expect(memory.networkStates('k', NETWORK_STATES_TTL_MS)).toBeUndefined();
  });

  it('should keep one URL hash per subscription and forget the old one after a rotation', () => {
    const memory = new FeedMemory(limits);
    memory.remember('old', remembered('s1', ['v1']), memory.epoch);
    memory.remember('new', remembered('s1', ['v1']), memory.epoch);
    expect(memory.feed('old', 0)).toBeUndefined();
    memory.notified('s:s1');
    expect(memory.feed('new', 0)).toBeUndefined();
  });

  it('should hold at most its limit of subscriptions, the least recently fetched forgotten', () => {
    const memory = new FeedMemory({ subscriptions: 2, networks: 2 });
    memory.remember('h1', remembered('s1', []), memory.epoch);
    memory.remember('h2', remembered('s2', []), memory.epoch);
    memory.feed('h1', 0);
    memory.remember('h3', remembered('s3', []), memory.epoch);
    expect(memory.sizes.feeds).toBe(2);
    expect(memory.feed('h2', 0)).toBeUndefined();
    // The forgotten one's id is forgotten too: a later notification for it finds nothing.
    memory.notified('s:s2');
    expect(memory.feed('h1', 0)).toBeDefined();
  });
});
