import { Keypair } from '@solana/web3.js';
import { FakeChain } from '../../test/support/fake-chain';
import type { AppConfig } from '../config/app-config';
import type { DepositMatcherService } from './deposit-matcher.service';
import { DepositWatcherService } from './deposit-watcher.service';
import type { DepositRequestRow, DepositsRepository } from './deposits.repository';
import type { ChainTransaction } from './solana-chain';

const key = () => Keypair.generate().publicKey.toBase58();
const treasury = key();
const config = { solana: { depositAddress: treasury, commitment: 'finalized' } } as AppConfig;

function setup(open: boolean) {
  const chain = new FakeChain();
  const requests: DepositRequestRow[] = [];
  const repository = {
    anyOpen: jest.fn(() => Promise.resolve(open)),
    openByReferences: jest.fn((keys: readonly string[]) =>
      Promise.resolve(requests.filter((r) => keys.includes(r.reference))),
    ),
  };
  const creditIfPays = jest.fn(() => Promise.resolve({ fresh: true }));
  const matcher = {
    fetch: (signature: string) => chain.transaction(signature),
    call: <T>(work: () => Promise<T>) => work(),
    creditIfPays,
  };
  const watcher = new DepositWatcherService(
    repository as unknown as DepositsRepository,
    matcher as unknown as DepositMatcherService,
    chain,
    config,
    { now: () => new Date() },
  );
  const transfer = (reference: string, confirmation: ChainTransaction['confirmation']) => {
    const tx: ChainTransaction = {
      signature: key() + key(),
      blockTime: new Date(),
      failed: false,
      confirmation,
      feePayer: key(),
      accountKeys: [treasury, reference],
      transfers: [],
    };
    chain.add(tx);
    return tx;
  };
  const request = () => {
    const row = { id: key(), reference: key() } as DepositRequestRow;
    requests.push(row);
    return row;
  };
  return { chain, watcher, transfer, request, creditIfPays };
}

describe('DepositWatcherService', () => {
  it('should ask the chain nothing while no request is open', async () => {
    const { chain, watcher } = setup(false);
    expect(await watcher.watch()).toBe(0);
    expect(chain.calls).toBe(0);
  });

  it('should credit a transfer carrying an open request reference once it is finalized', async () => {
    const { watcher, transfer, request, creditIfPays } = setup(true);
    const paid = request();
    const tx = transfer(paid.reference, 'confirmed');
    expect(await watcher.watch()).toBe(0);
    expect(creditIfPays).not.toHaveBeenCalled();
    tx.confirmation = 'finalized';
    expect(await watcher.watch()).toBe(1);
    expect(creditIfPays).toHaveBeenCalledWith(paid, tx);
    // Handled: neither listed again (until the newest seen) nor pending.
    expect(await watcher.watch()).toBe(0);
    expect(creditIfPays).toHaveBeenCalledTimes(1);
  });

  it('should make one list call per tick and fetch only new transfers', async () => {
    const { chain, watcher, transfer, request } = setup(true);
    transfer(request().reference, 'finalized');
    await watcher.watch();
    const before = chain.calls;
    await watcher.watch();
    expect(chain.calls - before).toBe(1);
    transfer(key(), 'finalized'); // a transfer of no request: fetched once, credits nothing
    expect(await watcher.watch()).toBe(0);
    expect(chain.calls - before).toBe(3);
  });
});
