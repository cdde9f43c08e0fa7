import { describe, expect, it } from '@jest/globals';
import type { MarketServer } from '@scn/proto';
import {
  type CardState,
  type MarketViewer,
  canToggleSelection,
  connectAction,
  cooldownSeconds,
  displayReliability,
  insufficientBalanceMessage,
  isOwnServer,
  isServerDisabled,
  needsCooldown,
  pageItems,
  priceLabel,
  searchResults,
  showBackToTop,
  staggerDelaySeconds,
  totalPriceMicro,
} from './market-rules';

const OWNER = '0b6f1c8e-2a47-4c0f-9a51-4f1d2d9b7e01';
const CLIENT: MarketViewer = { uuid: 'c1a2b3c4-0000-4000-8000-000000000001', userType: 'client' };
const NODE: MarketViewer = { uuid: OWNER, userType: 'node' };
const IDLE: CardState = { selected: false, processingSeconds: undefined };

function server(overrides: Partial<MarketServer> = {}): MarketServer {
  return {
    id: '5d0c7f0e-8c1b-4f8e-9a3e-2f6a1b0c9d11',
    name: 'Frankfurt 1',
    ip: '203.0.113.7',
    country: 'DE',
    countryCode: 'DE',
    location: 'Frankfurt',
    isPromoted: false,
    isAdminServer: false,
    availableUuids: 5,
    hasAvailable: true,
    price: 10,
    priceMicro: '10000000',
    nodeUUID: OWNER,
    userUuid: OWNER,
    authUuid: OWNER,
    lastUpdated: '2026-11-22T10:00:00.000Z',
    reliability: 96,
    ping: 42,
    latency: 42,
    uptime: 26,
    status: 'online',
    isDisabled: false,
    unavailable: false,
    isStale: false,
    serverType: 'agent',
    sharedCredentials: false,
    controls: { connectButton: true, price: 10, reason: null },
    vlessLink: '',
    vlessString: '',
    host: '203.0.113.7',
    port: 443,
    security: 'reality',
    sni: '',
    fp: '',
    pbk: '',
    sid: '',
    flow: '',
    type: 'tcp',
    activeConnections: 3,
    isSubscribed: false,
    reachability: 'unknown',
    ...overrides,
  };
}

describe('isServerDisabled', () => {
  it('should be false for an online server with free slots and the connect control on', () => {
    expect(isServerDisabled(server())).toBe(false);
  });

  it.each([
    ['isDisabled', { isDisabled: true }],
    ['the connect control off', { controls: { connectButton: false, price: 10, reason: 'x' } }],
    ['no free slots', { availableUuids: 0 }],
    ['status unavailable', { status: 'unavailable' as const }],
    ['status offline', { status: 'offline' as const }],
  ])('should be true when %s', (_, overrides) => {
    expect(isServerDisabled(server(overrides))).toBe(true);
  });
});

describe('displayReliability', () => {
  it('should show 100% for admin servers whatever they report', () => {
    expect(displayReliability(server({ isAdminServer: true, reliability: 40 }))).toBe(100);
  });

  it('should show 0 for an unavailable, stale or connect-off server', () => {
    expect(displayReliability(server({ unavailable: true }))).toBe(0);
    expect(displayReliability(server({ isStale: true }))).toBe(0);
    expect(
      displayReliability(server({ controls: { connectButton: false, price: 10, reason: 'x' } })),
    ).toBe(0);
  });

  it('should show the reported value, and 100 when unknown', () => {
    expect(displayReliability(server({ reliability: 87.6 }))).toBe(88);
    expect(displayReliability(server({ reliability: Number.NaN }))).toBe(100);
  });
});

describe('connectAction', () => {
  it('should say Connect for an available server that is not selected', () => {
    expect(connectAction(server(), IDLE)).toBe('connect');
  });

  it('should say Selected for a selected server without a cooldown', () => {
    expect(connectAction(server(), { selected: true, processingSeconds: undefined })).toBe(
      'selected',
    );
  });

  it('should show the cooldown ahead of Selected, its seconds rounded up', () => {
    expect(connectAction(server(), { selected: true, processingSeconds: 41.2 })).toBe('cooldown');
    expect(cooldownSeconds(41.2)).toBe(42);
    expect(connectAction(server(), { selected: false, processingSeconds: 0 })).toBe('cooldown');
    expect(cooldownSeconds(0)).toBe(0);
  });

  it('should say Unavailable for a disabled server, ahead of the cooldown', () => {
    expect(
      connectAction(server({ availableUuids: 0 }), { selected: true, processingSeconds: 5 }),
    ).toBe('unavailable');
  });

  it('should say Already Subscribed ahead of everything else', () => {
    expect(
      connectAction(server({ isSubscribed: true, status: 'offline' }), {
        selected: true,
        processingSeconds: 12,
      }),
    ).toBe('subscribed');
  });

  it('should default the cooldown to 60 s when its remaining time is unknown', () => {
    expect(cooldownSeconds(undefined)).toBe(60);
    expect(cooldownSeconds(Number.NaN)).toBe(60);
    expect(cooldownSeconds(-3)).toBe(0);
  });
});

describe('canToggleSelection', () => {
  it('should let a signed-in client toggle an available server', () => {
    expect(canToggleSelection(server(), IDLE, CLIENT)).toBe(true);
    expect(
      canToggleSelection(server(), { selected: true, processingSeconds: undefined }, CLIENT),
    ).toBe(true);
  });

  it('should refuse a signed-out visitor and a node operator', () => {
    expect(canToggleSelection(server(), IDLE, null)).toBe(false);
    expect(canToggleSelection(server(), IDLE, NODE)).toBe(false);
  });

  it('should refuse a processing, disabled or subscribed server', () => {
    expect(canToggleSelection(server(), { selected: true, processingSeconds: 30 }, CLIENT)).toBe(
      false,
    );
    expect(canToggleSelection(server({ status: 'offline' }), IDLE, CLIENT)).toBe(false);
    expect(canToggleSelection(server({ isSubscribed: true }), IDLE, CLIENT)).toBe(false);
  });

  it('should start a cooldown only when selecting a non-premium server', () => {
    expect(needsCooldown(server(), true)).toBe(true);
    expect(needsCooldown(server(), false)).toBe(false);
    expect(needsCooldown(server({ isAdminServer: true }), true)).toBe(false);
  });
});

describe('isOwnServer', () => {
  it('should recognise the operator by nodeUUID, userUuid or authUuid', () => {
    expect(isOwnServer(server(), NODE)).toBe(true);
    expect(
      isOwnServer(server({ nodeUUID: 'x', userUuid: 'y' }), {
        uuid: OWNER.toUpperCase(),
        userType: 'node',
      }),
    ).toBe(true);
  });

  it('should never tag a server for a client or a visitor', () => {
    expect(isOwnServer(server(), { uuid: OWNER, userType: 'client' })).toBe(false);
    expect(isOwnServer(server(), null)).toBe(false);
    expect(isOwnServer(server(), { uuid: CLIENT.uuid, userType: 'node' })).toBe(false);
  });
});

describe('money', () => {
  it('should show the price exactly, Free for 0', () => {
    expect(priceLabel('10000000')).toBe('10 SSL');
    expect(priceLabel('10500000')).toBe('10.5 SSL');
    expect(priceLabel('0')).toBe('Free');
  });

  it('should add the selected prices in micro-SSL without floats', () => {
    expect(
      totalPriceMicro([{ priceMicro: '10000000' }, { priceMicro: '100000' }, { priceMicro: '1' }]),
    ).toBe(10_100_001n);
    expect(totalPriceMicro([])).toBe(0n);
  });

  it('should name the price and balance with 2 decimals cut toward zero when the balance is short', () => {
    expect(insufficientBalanceMessage(20_000_000n, 5_009_999n)).toBe(
      'Insufficient balance. You need 20.00 SSL but have 5.00 SSL.',
    );
    expect(insufficientBalanceMessage(20_000_000n, 0n)).toBe(
      'Insufficient balance. You need 20.00 SSL but have 0.00 SSL.',
    );
  });

  it('should say nothing when the balance covers the price or the subscription is free', () => {
    expect(insufficientBalanceMessage(20_000_000n, 20_000_000n)).toBeNull();
    expect(insufficientBalanceMessage(0n, 0n)).toBeNull();
  });
});

describe('page display', () => {
  it('should stagger cards by 0.05 s, capped at 0.6 s', () => {
    expect(staggerDelaySeconds(0)).toBe(0);
    expect(staggerDelaySeconds(3)).toBeCloseTo(0.15);
    expect(staggerDelaySeconds(12)).toBeCloseTo(0.6);
    expect(staggerDelaySeconds(19)).toBe(0.6);
  });

  it('should show back-to-top only after more than 300 px', () => {
    expect(showBackToTop(0)).toBe(false);
    expect(showBackToTop(300)).toBe(false);
    expect(showBackToTop(301)).toBe(true);
  });

  it('should list every page up to 7, else the ends and a window with gaps', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 'gap', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'gap', 17, 18, 19, 20]);
  });
});

describe('searchResults', () => {
  it('should say the exact number when the search counted all its matches', () => {
    expect(searchResults(37, false)).toEqual({ key: 'market.results.found', count: 37 });
  });

  it('should say "more than" the cap when the control plane stopped counting there', () => {
    expect(searchResults(1000, true)).toEqual({ key: 'market.results.foundMore', count: 1000 });
  });
});
