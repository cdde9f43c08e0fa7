import { DEPOSIT_MESSAGES, solToLamports } from '@scn/proto';
import {
  creditMicro,
  creditedMessage,
  explorerTxUrl,
  solanaConfigView,
  solPriceUsd,
  transferRequestUrl,
} from './deposit-rules';

describe('creditMicro', () => {
  it.each([
    ['1', 5143, 5143_000000n],
    ['0.001', 5143, 5_000000n], // 5.143 SSL: floor to 5 whole SSL
    ['0.5', 5143, 2571_000000n], // 2571.5 -> 2571
    ['0.000000001', 5143, 0n],
    ['12.345678912', 5143, 63493_000000n], // 63493.826... -> 63493
    ['1000000', 5143, 5_143_000_000_000000n],
  ])('should credit floor(%s SOL x %d) whole SSL in micro-SSL', (sol, rate, micro) => {
    expect(creditMicro(solToLamports(sol), rate)).toBe(micro);
  });
});

describe('the Solana config view', () => {
  const settings = {
    rpcUrl: 'http://198.51.100.7:8899',
    publicRpcUrl: 'http://127.0.0.1:8899',
    cluster: 'localnet' as const,
    depositAddress: 'Treasury111111111111111111111111111111111',
    commitment: 'finalized' as const,
    sslPerSol: 5143,
    quoteTtlSeconds: 1800,
    demoWalletUrl: 'http://127.0.0.1:8900',
    depositAddresses: null,
  };

  it('should price SOL at rate x $0.035 and show the public RPC, not the private one', () => {
    const view = solanaConfigView(settings, new Date('2026-01-01T00:00:00Z'));
    expect(view).toEqual({
      success: true,
      depositAddress: settings.depositAddress,
      conversionRate: 5143,
      sslTokenPrice: 0.035,
      solPriceUsd: 180.005,
      lastUpdated: '2026-01-01T00:00:00.000Z',
      cluster: 'localnet',
      rpcUrl: 'http://127.0.0.1:8899',
      quoteValidSeconds: 1800,
      explorerTxUrl:
        'https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
      demoWalletUrl: 'http://127.0.0.1:8900',
      depositAddresses: false,
    });
    expect(solPriceUsd(6000)).toBe(210);
  });

  it('should link the explorer of devnet and mainnet, and offer no demo wallet there', () => {
    expect(explorerTxUrl({ ...settings, cluster: 'devnet' })).toBe(
      'https://explorer.solana.com/tx/{signature}?cluster=devnet',
    );
    expect(explorerTxUrl({ ...settings, cluster: 'mainnet-beta' })).toBe(
      'https://explorer.solana.com/tx/{signature}',
    );
    expect(
      solanaConfigView({ ...settings, cluster: 'devnet' }, new Date()).demoWalletUrl,
    ).toBeNull();
  });
});

describe('transferRequestUrl', () => {
  it('should follow the Solana Pay transfer request: recipient, decimal SOL amount, reference', () => {
    expect(
      transferRequestUrl({
        depositAddress: 'Dep1111111111111111111111111111111111111111',
        lamports: 1_500_000_000n,
        reference: 'Ref1111111111111111111111111111111111111111',
      }),
    ).toBe(
      'solana:Dep1111111111111111111111111111111111111111?amount=1.5&reference=Ref1111111111111111111111111111111111111111&label=SCN&message=SSL%20deposit',
    );
  });
});

describe('creditedMessage', () => {
  it('should say the whole SSL credited', () => {
    expect(creditedMessage(5143_000000n)).toBe(DEPOSIT_MESSAGES.credited('5143'));
  });
});
