import { describe, expect, it } from '@jest/globals';
import type { DepositCurrencyView, DepositTransferView } from '@scn/proto';
import {
  addressTransferUrl,
  currencyAmount,
  demoAmount,
  liveState,
  minimumText,
  pendingFor,
  rateText,
  statusBadge,
  transferAmount,
  unitsToDecimal,
} from './address-deposit-rules';

const ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const usdc: DepositCurrencyView = {
  code: 'USDC',
  mint: MINT,
  decimals: 6,
  sslPerUnitMicro: '28571428',
  minimumBaseUnits: '100000',
  minimum: '0.1',
};
const sol: DepositCurrencyView = {
  code: 'SOL',
  mint: null,
  decimals: 9,
  sslPerUnitMicro: '5143000000',
  minimumBaseUnits: '1000000',
  minimum: '0.001',
};

function transfer(id: string, status: DepositTransferView['status']): DepositTransferView {
  return {
    id,
    signature: `sig-${id}`,
    currency: 'USDC',
    mint: MINT,
    baseUnits: '2000000',
    amount: '2',
    status,
    refusedReason: null,
    sslPerUnitMicro: '28571428',
    creditMicro: status === 'credited' ? '57142856' : null,
    seenAt: '2026-11-28T08:00:00.000Z',
    creditedAt: null,
  };
}

describe('unitsToDecimal', () => {
  it('should write base units as whole units without trailing zeros', () => {
    expect(unitsToDecimal('1500000', 6)).toBe('1.5');
    expect(unitsToDecimal('2000000', 6)).toBe('2');
    expect(unitsToDecimal('1', 9)).toBe('0.000000001');
    expect(unitsToDecimal(0n, 6)).toBe('0');
    expect(unitsToDecimal('123456789012345678901', 9)).toBe('123456789012.345678901');
    expect(unitsToDecimal('-1500000', 6)).toBe('-1.5');
    expect(unitsToDecimal('42', 0)).toBe('42');
  });
});

describe('rateText and minimumText', () => {
  it('should show the SSL one whole unit buys, every micro-SSL digit', () => {
    expect(rateText('USDC', usdc.sslPerUnitMicro, 'en')).toBe('1 USDC = 28.571428 SSL');
    expect(rateText('SOL', sol.sslPerUnitMicro, 'en')).toBe('1 SOL = 5,143 SSL');
  });

  it('should write the reader’s digits in Persian', () => {
    expect(rateText('USDC', usdc.sslPerUnitMicro, 'fa')).toBe('۱ USDC = ۲۸٫۵۷۱۴۲۸ SSL');
    expect(minimumText(usdc, 'fa')).toBe('۰٫۱ USDC');
  });

  it('should give the minimum in whole units with its code', () => {
    expect(minimumText(usdc, 'en')).toBe('0.1 USDC');
    expect(minimumText(sol, 'en')).toBe('0.001 SOL');
    expect(currencyAmount('1234500000', 6, 'USDT', 'en')).toBe('1,234.5 USDT');
  });
});

describe('addressTransferUrl and demoAmount', () => {
  it('should build a transfer request without a reference, with spl-token for a token', () => {
    expect(addressTransferUrl(ADDRESS, '1', MINT)).toBe(
      `solana:${ADDRESS}?amount=1&spl-token=${MINT}`,
    );
    expect(addressTransferUrl(ADDRESS, '0.1', null)).toBe(`solana:${ADDRESS}?amount=0.1`);
  });

  it('should send ten minimums, at least a tenth of a unit', () => {
    expect(demoAmount(usdc)).toBe('1');
    expect(demoAmount(sol)).toBe('0.1');
    expect(demoAmount({ ...usdc, minimumBaseUnits: '5000000' })).toBe('50');
  });
});

describe('liveState', () => {
  const known = new Set(['old']);

  it('should wait while nothing new arrived', () => {
    expect(liveState([transfer('old', 'credited')], known)).toEqual({ kind: 'waiting' });
    expect(liveState([transfer('gone', 'dropped')], known)).toEqual({ kind: 'waiting' });
  });

  it('should show a new transfer confirming, then credited', () => {
    const seen = transfer('new', 'confirming');
    expect(liveState([seen, transfer('old', 'credited')], known)).toEqual({
      kind: 'confirming',
      transfer: seen,
    });
    const credited = transfer('new', 'credited');
    expect(liveState([credited, transfer('old', 'credited')], known)).toEqual({
      kind: 'credited',
      transfer: credited,
    });
  });

  it('should prefer a credit to another confirming transfer, and report pending and refused', () => {
    const credited = transfer('a', 'credited');
    expect(liveState([transfer('b', 'confirming'), credited], known).kind).toBe('credited');
    expect(liveState([transfer('c', 'pending_minimum')], known).kind).toBe('pending');
    expect(liveState([transfer('d', 'refused')], known).kind).toBe('refused');
  });
});

describe('statusBadge', () => {
  it('should name every status of the contract with a tone', () => {
    expect(statusBadge('credited')).toEqual({ key: 'credited', tone: 'success' });
    expect(statusBadge('confirming')).toEqual({ key: 'confirming', tone: 'info' });
    expect(statusBadge('pending_minimum')).toEqual({ key: 'pending', tone: 'warning' });
    expect(statusBadge('refused')).toEqual({ key: 'refused', tone: 'danger' });
    expect(statusBadge('dropped')).toEqual({ key: 'dropped', tone: 'neutral' });
  });
});

describe('transferAmount and pendingFor', () => {
  it('should show the amount with its currency, raw units for a refused mint', () => {
    expect(transferAmount(transfer('x', 'credited'), 'en')).toBe('2 USDC');
    expect(
      transferAmount(
        { ...transfer('y', 'refused'), currency: null, amount: null, baseUnits: '500' },
        'en',
      ),
    ).toBe('500 ?');
  });

  it('should find the pending total of the transfer’s currency', () => {
    const pending = [
      {
        currency: 'SOL' as const,
        baseUnits: '1',
        amount: '0.000000001',
        minimumBaseUnits: '1000000',
        minimum: '0.001',
      },
    ];
    expect(pendingFor(pending, 'SOL')).toBe(pending[0]);
    expect(pendingFor(pending, 'USDC')).toBeNull();
    expect(pendingFor(pending, null)).toBeNull();
  });
});
