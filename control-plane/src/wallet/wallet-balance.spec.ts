import { availableBalance } from './wallet-balance';

const lot = (amountMicro: bigint) => ({ amountMicro, frozenUntil: new Date(0) });

describe('availableBalance', () => {
  it('should be the whole balance when nothing is frozen', () => {
    expect(availableBalance(50n, [])).toEqual({ frozenMicro: 0n, availableMicro: 50n });
  });

  it('should take every frozen lot off the balance', () => {
    expect(availableBalance(50n, [lot(20n), lot(10n)])).toEqual({
      frozenMicro: 30n,
      availableMicro: 20n,
    });
  });

  it('should count frozen lots for at most the balance when part of them is spent already', () => {
    expect(availableBalance(15n, [lot(20n), lot(10n)])).toEqual({
      frozenMicro: 15n,
      availableMicro: 0n,
    });
    expect(availableBalance(0n, [lot(20n)])).toEqual({ frozenMicro: 0n, availableMicro: 0n });
  });
});
