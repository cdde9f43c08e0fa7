import { PublicKey } from '@solana/web3.js';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import type { RateLimitService } from '../rate-limit/rate-limit.service';
import { DepositRequestsService } from './deposit-requests.service';
import { DepositsException } from './deposits.exception';
import type { DepositsRepository } from './deposits.repository';

const now = new Date('2026-11-24T12:00:00Z');
const solana = {
  depositAddress: 'Dep1111111111111111111111111111111111111111',
  sslPerSol: 5143,
  quoteTtlSeconds: 1800,
} as NonNullable<AppConfig['solana']>;

function setup(config: AppConfig = { solana } as AppConfig) {
  const insertRequest = jest.fn(() => Promise.resolve());
  const consume = jest.fn(() => Promise.resolve({ release: () => Promise.resolve() }));
  const service = new DepositRequestsService(
    { insertRequest } as unknown as DepositsRepository,
    { consume } as unknown as RateLimitService,
    config,
    { now: () => now },
  );
  return { service, insertRequest, consume };
}

const session = (userType: 'client' | 'node') =>
  ({ account: { uuid: '6f1c2a57-8a5e-4a53-9a59-8c8f7e0b7a11', userType } }) as ActiveSession;

describe('DepositRequestsService', () => {
  it('should fix the quote, a fresh reference key and the transfer URL', async () => {
    const { service, insertRequest } = setup();
    const body = { solAmount: '0.5', userAddress: 'Usr1111111111111111111111111111111111111111' };
    const first = await service.create(session('client'), body);
    const second = await service.create(session('client'), body);
    expect(first).toMatchObject({
      status: 'open',
      walletType: 'client_wallet',
      lamports: '500000000',
      solAmount: '0.5',
      conversionRate: 5143,
      sslCreditMicro: '2571000000',
      createdAt: now.toISOString(),
      expiresAt: '2026-11-24T12:30:00.000Z',
      signature: null,
    });
    expect(new PublicKey(first.reference).toBase58()).toBe(first.reference);
    expect(first.reference).not.toBe(second.reference);
    expect(first.transferUrl).toBe(
      `solana:${solana.depositAddress}?amount=0.5&reference=${first.reference}&label=SCN&message=SSL%20deposit`,
    );
    expect(insertRequest).toHaveBeenCalledTimes(2);
  });

  it("should deposit into a node operator's node wallet", async () => {
    const { service } = setup();
    const request = await service.create(session('node'), {
      solAmount: '1',
      userAddress: 'Usr1111111111111111111111111111111111111111',
    });
    expect(request.walletType).toBe('node_wallet');
  });

  it('should refuse an amount worth under 1 SSL before counting or writing anything', async () => {
    const { service, insertRequest, consume } = setup({
      solana: { ...solana, sslPerSol: 1 },
    } as AppConfig);
    await expect(
      service.create(session('client'), { solAmount: '0.5', userAddress: 'x' }),
    ).rejects.toMatchObject({ code: 'amount_too_small' });
    expect(consume).not.toHaveBeenCalled();
    expect(insertRequest).not.toHaveBeenCalled();
  });

  it('should answer deposits_off when the chain is not configured', async () => {
    const { service } = setup({ solana: null } as AppConfig);
    await expect(
      service.create(session('client'), { solAmount: '1', userAddress: 'x' }),
    ).rejects.toEqual(new DepositsException('deposits_off'));
  });
});
