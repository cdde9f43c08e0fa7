import {
  NOW,
  subscribableServer,
  subscriptionRecord,
} from '../../test/support/subscription-fixtures';
import {
  type BlockedServer,
  CLIENT_NETWORK_FRESH_MS,
  movePostings,
  type ReplacementCandidate,
  replacementNetwork,
  replacementsFor,
  tierRank,
} from './replacement-rules';

const SSL = 1_000_000n;
const BLOCKED_ID = 'b0000000-0000-4000-8000-000000000000';
const blocked: BlockedServer = {
  server: subscribableServer(BLOCKED_ID, { tier: 'tier2' }),
  priceMicro: 10n * SSL,
};

function candidate(
  id: string,
  changes: Partial<Omit<ReplacementCandidate, 'server'>> & {
    server?: Parameters<typeof subscribableServer>[1];
  } = {},
): ReplacementCandidate {
  const { server, ...rest } = changes;
  return {
    server: subscribableServer(id, { tier: 'tier2', ...server }),
    listed: true,
    freePlaces: 5,
    worksScore: 900,
    pingMs: 40,
    priceMicro: 10n * SSL,
    ...rest,
  };
}

const ids = (list: readonly ReplacementCandidate[]) => list.map((c) => c.server.id);
const none = new Set<string>();

describe('replacementNetwork', () => {
  const seen = { country: 'IR', asn: 44244, seenAt: new Date(NOW.getTime() - 60_000) };

  it('should answer the client network when the subscription is active, paid and the client seen lately', () => {
    expect(replacementNetwork(subscriptionRecord(), seen, NOW)).toEqual({
      country: 'IR',
      asn: 44244,
      asnName: null,
    });
  });

  it('should answer null when paused, expired, unpaid or the client not seen within 7 days', () => {
    expect(replacementNetwork(subscriptionRecord({ status: 'paused' }), seen, NOW)).toBeNull();
    expect(replacementNetwork(subscriptionRecord({ status: 'expired' }), seen, NOW)).toBeNull();
    expect(replacementNetwork(subscriptionRecord({ expiresAt: NOW }), seen, NOW)).toBeNull();
    const old = new Date(NOW.getTime() - CLIENT_NETWORK_FRESH_MS - 1);
    expect(replacementNetwork(subscriptionRecord(), { ...seen, seenAt: old }, NOW)).toBeNull();
    expect(replacementNetwork(subscriptionRecord(), { ...seen, country: null }, NOW)).toBeNull();
    expect(replacementNetwork(subscriptionRecord(), { ...seen, seenAt: null }, NOW)).toBeNull();
  });
});

describe('replacementsFor', () => {
  it('should order by works score, then reliability, then ping', () => {
    const list = replacementsFor(
      blocked,
      [
        candidate('c1000000-0000-4000-8000-000000000000', { worksScore: 700 }),
        candidate('c2000000-0000-4000-8000-000000000000', { worksScore: 900, pingMs: 80 }),
        candidate('c3000000-0000-4000-8000-000000000000', { worksScore: 900, pingMs: 20 }),
        candidate('c4000000-0000-4000-8000-000000000000', {
          worksScore: 900,
          pingMs: 5,
          server: { reliabilityAtReport: 97 },
        }),
      ],
      none,
      NOW,
    );
    expect(ids(list)).toEqual([
      'c3000000-0000-4000-8000-000000000000',
      'c2000000-0000-4000-8000-000000000000',
      'c4000000-0000-4000-8000-000000000000',
      'c1000000-0000-4000-8000-000000000000',
    ]);
  });

  it('should refuse a lower tier and take the same or a better one', () => {
    const list = replacementsFor(
      blocked,
      [
        candidate('c1000000-0000-4000-8000-000000000000', { server: { tier: 'tier1' } }),
        candidate('c2000000-0000-4000-8000-000000000000', { server: { tier: 'tier2' } }),
        candidate('c3000000-0000-4000-8000-000000000000', { server: { tier: 'tier4' } }),
      ],
      none,
      NOW,
    );
    expect(ids(list).sort()).toEqual([
      'c2000000-0000-4000-8000-000000000000',
      'c3000000-0000-4000-8000-000000000000',
    ]);
    expect(tierRank('tier4')).toBeGreaterThan(tierRank('tier2'));
  });

  it('should refuse a dearer server and accept a cheaper one', () => {
    const list = replacementsFor(
      blocked,
      [
        candidate('c1000000-0000-4000-8000-000000000000', { priceMicro: 10n * SSL + 1n }),
        candidate('c2000000-0000-4000-8000-000000000000', { priceMicro: 0n }),
      ],
      none,
      NOW,
    );
    expect(ids(list)).toEqual(['c2000000-0000-4000-8000-000000000000']);
  });

  it('should refuse a server without a free place, unlisted, or not subscribable now', () => {
    const list = replacementsFor(
      blocked,
      [
        candidate('c1000000-0000-4000-8000-000000000000', { freePlaces: 0 }),
        candidate('c2000000-0000-4000-8000-000000000000', { listed: false }),
        candidate('c3000000-0000-4000-8000-000000000000', { server: { coreState: 'stopped' } }),
        candidate('c4000000-0000-4000-8000-000000000000', { server: { host: null } }),
        candidate('c5000000-0000-4000-8000-000000000000', { server: { source: 'manual' } }),
        candidate('c6000000-0000-4000-8000-000000000000', { server: { reliabilityAtReport: 90 } }),
      ],
      none,
      NOW,
    );
    expect(list).toEqual([]);
  });

  it('should refuse servers already in the subscription and the blocked server itself', () => {
    const list = replacementsFor(
      blocked,
      [
        candidate('c1000000-0000-4000-8000-000000000000'),
        candidate(BLOCKED_ID),
        candidate('c2000000-0000-4000-8000-000000000000'),
      ],
      new Set(['c1000000-0000-4000-8000-000000000000', BLOCKED_ID]),
      NOW,
    );
    expect(ids(list)).toEqual(['c2000000-0000-4000-8000-000000000000']);
  });

  it('should take a premium server only for a premium one, and another operator for anyone', () => {
    const premium = candidate('c1000000-0000-4000-8000-000000000000', {
      server: { premium: true, ownerUuid: '55555555-5555-4555-8555-555555555555' },
    });
    const other = candidate('c2000000-0000-4000-8000-000000000000', {
      server: { ownerUuid: '66666666-6666-4666-8666-666666666666' },
    });
    expect(ids(replacementsFor(blocked, [premium, other], none, NOW))).toEqual([
      'c2000000-0000-4000-8000-000000000000',
    ]);
    const premiumBlocked = { ...blocked, server: { ...blocked.server, premium: true } };
    expect(ids(replacementsFor(premiumBlocked, [premium], none, NOW))).toEqual([
      'c1000000-0000-4000-8000-000000000000',
    ]);
  });

  it('should answer no candidate when none is given', () => {
    expect(replacementsFor(blocked, [], none, NOW)).toEqual([]);
  });
});

describe('movePostings', () => {
  const A = '77777777-7777-4777-8777-777777777777';
  const B = '88888888-8888-4888-8888-888888888888';
  const frozen = new Date('2026-05-01T00:00:00Z');
  const takeBack = [
    { account: { wallet: 'node_wallet' as const, ownerUuid: A }, amountMicro: -4n * SSL },
    { account: { system: 'platform_revenue' as const }, amountMicro: -2n * SSL },
  ];

  it('should credit the replacement operator, frozen, what the blocked side gives back', () => {
    expect(movePostings(takeBack, { premium: false, ownerUuid: B }, 6n * SSL, frozen)).toEqual([
      ...takeBack.slice(0, 1),
      {
        account: { wallet: 'node_wallet', ownerUuid: B },
        amountMicro: 6n * SSL,
        frozenUntil: frozen,
      },
      { account: { system: 'platform_revenue' }, amountMicro: -2n * SSL },
    ]);
  });

  it('should let platform_revenue keep it for a premium replacement, netted into one posting', () => {
    expect(movePostings(takeBack, { premium: true, ownerUuid: B }, 6n * SSL, frozen)).toEqual([
      takeBack[0],
      { account: { system: 'platform_revenue' }, amountMicro: 4n * SSL },
    ]);
    const platformOnly = [
      { account: { system: 'platform_revenue' as const }, amountMicro: -6n * SSL },
    ];
    expect(movePostings(platformOnly, { premium: true, ownerUuid: B }, 6n * SSL, frozen)).toEqual(
      [],
    );
  });

  it('should move nothing when nothing is left of the period', () => {
    expect(movePostings([], { premium: false, ownerUuid: B }, 0n, frozen)).toEqual([]);
  });
});
