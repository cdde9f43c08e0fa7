import {
  depositAddress,
  depositKeypair,
  MAX_DERIVATION_INDEX,
  parseDepositSeed,
  slip10Derive,
  slip10Master,
} from './deposit-address-derivation';
import { Keypair } from '@solana/web3.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// SLIP-0010 "Test vector 1 for ed25519" (seed 000102030405060708090a0b0c0d0e0f): chain code,
// private key and public key (with SLIP-0010's 00 prefix) of each node; every index hardened.
const VECTOR_1 = {
  seed: '000102030405060708090a0b0c0d0e0f',
  nodes: [
    {
      path: [],
      chainCode: '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
      key: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
      publicKey: '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
    },
    {
      path: [0],
      chainCode: '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
      key: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
      publicKey: '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    },
    {
      path: [0, 1],
      chainCode: 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
      key: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
    },
    {
      path: [0, 1, 2],
      chainCode: '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
      key: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
    },
    {
      path: [0, 1, 2, 2],
      chainCode: '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
      key: '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
    },
  ],
};

describe('SLIP-0010 ed25519 derivation', () => {
  const seed = Buffer.from(VECTOR_1.seed, 'hex');

  it('should match the spec master node when derived from test vector 1', () => {
    const master = slip10Master(seed);
    expect(hex(master.chainCode)).toBe(VECTOR_1.nodes[0]!.chainCode);
    expect(hex(master.key)).toBe(VECTOR_1.nodes[0]!.key);
  });

  it.each(VECTOR_1.nodes)(
    'should match the spec chain code, key and public key at $path',
    ({ path, chainCode, key, publicKey }) => {
      const node = slip10Derive(seed, path);
      expect(hex(node.chainCode)).toBe(chainCode);
      expect(hex(node.key)).toBe(key);
      if (publicKey) {
        expect(`00${hex(Keypair.fromSeed(node.key).publicKey.toBytes())}`).toBe(publicKey);
      }
    },
  );

  it('should refuse an index outside the hardened range', () => {
    expect(() => slip10Derive(seed, [MAX_DERIVATION_INDEX + 1])).toThrow(RangeError);
    expect(() => slip10Derive(seed, [-1])).toThrow(RangeError);
    expect(() => slip10Derive(seed, [1.5])).toThrow(RangeError);
  });
});

describe('deposit addresses', () => {
  const seed = parseDepositSeed('11'.repeat(32))!;

  it('should derive the same address for the same seed and index', () => {
    expect(depositAddress(seed, 7)).toBe(depositAddress(Buffer.from(seed), 7));
    expect(depositKeypair(seed, 7).publicKey.toBase58()).toBe(depositAddress(seed, 7));
  });

  it('should derive different addresses when the index or the seed differs', () => {
    const addresses = new Set([0, 1, 2, 3, 1000].map((i) => depositAddress(seed, i)));
    expect(addresses.size).toBe(5);
    expect(depositAddress(parseDepositSeed('22'.repeat(32))!, 0)).not.toBe(depositAddress(seed, 0));
  });

  it("should use m/44'/501'/<index>'/0' (the path Solana wallets use)", () => {
    const node = slip10Derive(seed, [44, 501, 3, 0]);
    expect(depositAddress(seed, 3)).toBe(Keypair.fromSeed(node.key).publicKey.toBase58());
  });

  it('should parse a seed of 32 to 64 hex bytes and refuse anything else', () => {
    expect(parseDepositSeed('ab'.repeat(32))?.length).toBe(32);
    expect(parseDepositSeed(` ${'AB'.repeat(64)} `)?.length).toBe(64);
    expect(parseDepositSeed('ab'.repeat(31))).toBeNull();
    expect(parseDepositSeed('ab'.repeat(65))).toBeNull();
    expect(parseDepositSeed('zz'.repeat(32))).toBeNull();
    expect(parseDepositSeed('abc'.repeat(21))).toBeNull();
  });
});
