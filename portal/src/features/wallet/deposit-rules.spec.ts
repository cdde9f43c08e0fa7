import { describe, expect, it } from '@jest/globals';
import { DEPOSIT_MESSAGES } from '@scn/proto';
import {
  canContinue,
  checkCryptoForm,
  creditedText,
  explorerLink,
  quotedSsl,
  transactionSignature,
  verifyOutcome,
} from './deposit-rules';

const ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const USER = '4f0d2b4c-8a51-4a8e-9c1e-3f1a2b3c4d5e';
const SIGNATURE = '5'.repeat(88);

describe('canContinue', () => {
  it('should wait until both the amount and the address are filled (spec 01 §5)', () => {
    expect(canContinue({ solAmount: '', userAddress: ADDRESS })).toBe(false);
    expect(canContinue({ solAmount: '0.5', userAddress: '  ' })).toBe(false);
    expect(canContinue({ solAmount: '0.5', userAddress: ADDRESS })).toBe(true);
  });
});

describe('checkCryptoForm', () => {
  it('should ask for every field first, the account included (spec 01 §8)', () => {
    expect(checkCryptoForm({ solAmount: '', userAddress: ADDRESS }, USER)).toEqual({
      ok: false,
      error: { area: 'deposit', key: 'fillAll' },
    });
    expect(checkCryptoForm({ solAmount: '1', userAddress: ADDRESS }, null)).toEqual({
      ok: false,
      error: { area: 'deposit', key: 'fillAll' },
    });
  });

  it('should refuse an amount that is not at least 0.001 SOL with at most 9 decimals', () => {
    for (const solAmount of ['0', '-1', 'abc', '0.0009', '1.0000000001', '1e3']) {
      expect(checkCryptoForm({ solAmount, userAddress: ADDRESS }, USER)).toEqual({
        ok: false,
        error: { area: 'deposit', key: 'invalidAmount' },
      });
    }
  });

  it('should refuse an address that is not a base58 public key', () => {
    for (const userAddress of ['not-an-address', '0OIl'.repeat(10), 'abc']) {
      expect(checkCryptoForm({ solAmount: '0.5', userAddress }, USER)).toEqual({
        ok: false,
        error: { area: 'deposit', key: 'invalidAddress' },
      });
    }
  });

  it('should give the trimmed values of a valid form', () => {
    expect(checkCryptoForm({ solAmount: ' 0.001 ', userAddress: ` ${ADDRESS} ` }, USER)).toEqual({
      ok: true,
      solAmount: '0.001',
      userAddress: ADDRESS,
    });
  });
});

describe('quotedSsl', () => {
  it('should be floor(SOL x rate) whole SSL, exact in integers', () => {
    expect(quotedSsl('1', 5143)).toBe(5143n);
    expect(quotedSsl('0.001', 5143)).toBe(5n); // 5.143
    expect(quotedSsl('0.1', 5143)).toBe(514n); // 514.3
    // 634,938,266,461.938265827 SSL
    expect(quotedSsl('123456789.123456789', 5143)).toBe(634938266461n);
    expect(quotedSsl('2', 100.5)).toBe(201n);
  });

  it('should show nothing for an invalid amount or rate', () => {
    expect(quotedSsl('', 5143)).toBeNull();
    expect(quotedSsl('0.0001', 5143)).toBeNull();
    expect(quotedSsl('1', 0)).toBeNull();
  });
});

describe('creditedText and verifyOutcome', () => {
  it('should report whole SSL without decimals, otherwise two', () => {
    expect(creditedText('5143000000', 'en')).toBe('5,143');
    expect(creditedText('1500000', 'en')).toBe('1.50');
    expect(creditedText('5143000000', 'fa')).toBe('۵٬۱۴۳');
  });

  it('should turn a verified deposit into the alert (spec 01 §4)', () => {
    expect(
      verifyOutcome(
        {
          verified: true,
          message: 'ok',
          transaction: {
            signature: SIGNATURE,
            sslTokens: 514,
            sslCreditMicro: '514000000',
            solAmount: '0.1',
          },
        },
        'en',
      ),
    ).toEqual({
      credited: true,
      alert: { area: 'deposit', key: 'credited', values: { ssl: '514' } },
    });
  });

  it("should show the server's error, its message, else 'Transaction not found' (spec 01 §8)", () => {
    expect(verifyOutcome({ verified: false, message: '', error: 'Boom' }, 'en')).toEqual({
      credited: false,
      error: { text: 'Boom' },
    });
    // A contract message is translated by its key, never shown as the English it came in.
    expect(verifyOutcome({ verified: false, message: DEPOSIT_MESSAGES.wrongAmount }, 'en')).toEqual(
      { credited: false, error: { area: 'deposit', key: 'wrongAmount' } },
    );
    expect(verifyOutcome({ verified: false, message: '' }, 'en')).toEqual({
      credited: false,
      error: { area: 'deposit', key: 'notFound' },
    });
  });
});

describe('explorerLink and transactionSignature', () => {
  it("should put the signature into the cluster's explorer address", () => {
    expect(
      explorerLink('https://explorer.solana.com/tx/{signature}?cluster=devnet', SIGNATURE),
    ).toBe(`https://explorer.solana.com/tx/${SIGNATURE}?cluster=devnet`);
    expect(explorerLink('http://127.0.0.1:8899/tx/{signature}', 'a/b')).toBe(
      'http://127.0.0.1:8899/tx/a%2Fb',
    );
  });

  it('should give no link without a template that names the signature', () => {
    expect(explorerLink(null, SIGNATURE)).toBeNull();
    expect(explorerLink('', SIGNATURE)).toBeNull();
    expect(explorerLink('https://explorer.solana.com/', SIGNATURE)).toBeNull();
  });

  it('should read the signature of a deposit and nothing of other transactions', () => {
    expect(transactionSignature({ id: '1', signature: SIGNATURE })).toBe(SIGNATURE);
    expect(transactionSignature({ id: '1', signature: null })).toBeNull();
    expect(transactionSignature({ id: '1' })).toBeNull();
  });
});
