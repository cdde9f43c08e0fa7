import type { AppConfig } from '../config/app-config';
import type { DepositCreditService } from './deposit-credit.service';
import { DepositMatcherService, RPC_TIMEOUT_MS } from './deposit-matcher.service';
import { DepositsException } from './deposits.exception';
import type { DepositsRepository } from './deposits.repository';
import type { DepositChain } from './solana-chain';

function matcher(chain: Partial<DepositChain>): DepositMatcherService {
  return new DepositMatcherService(
    {} as DepositsRepository,
    {} as DepositCreditService,
    chain as DepositChain,
    {} as AppConfig,
    { now: () => new Date() },
  );
}

describe('DepositMatcherService.fetch', () => {
  afterEach(() => jest.useRealTimers());

  it('should answer chain_unavailable when the RPC fails', async () => {
    const failing = matcher({ transaction: () => Promise.reject(new Error('ECONNREFUSED')) });
    await expect(failing.fetch('sig')).rejects.toEqual(new DepositsException('chain_unavailable'));
  });

  it('should answer chain_unavailable when the RPC does not answer in time', async () => {
    jest.useFakeTimers();
    const hanging = matcher({ transaction: () => new Promise(() => undefined) });
    const answer = hanging.fetch('sig');
    jest.advanceTimersByTime(RPC_TIMEOUT_MS);
    await expect(answer).rejects.toEqual(new DepositsException('chain_unavailable'));
  });
});
