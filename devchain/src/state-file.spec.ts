import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { startDevchain } from './index';

describe('devchain stateFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'devchain-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should keep balances, history, slot and the demo wallet when the chain restarts', async () => {
    const stateFile = join(dir, 'chain.json');
    const first = await startDevchain({ slotMs: 60_000, finalizeAfterSlots: 2, stateFile });
    let connection = new Connection(first.url, 'confirmed');
    const payer = Keypair.generate();
    const reference = Keypair.generate().publicKey;
    const recipient = Keypair.generate().publicKey;
    await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    first.advanceSlots(1);
    const instruction = SystemProgram.transfer({
      fromPubkey: payer.publicKey,
      toPubkey: recipient,
      lamports: LAMPORTS_PER_SOL / 2,
    });
    instruction.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    const signature = await connection.sendTransaction(new Transaction().add(instruction), [payer]);
    first.advanceSlots(3);
    const slotBefore = await connection.getSlot('processed');
    await first.stop();

    const second = await startDevchain({ slotMs: 60_000, finalizeAfterSlots: 2, stateFile });
    try {
      connection = new Connection(second.url, 'confirmed');
      expect(second.demoWalletAddress).toBe(first.demoWalletAddress);
      expect(await connection.getSlot('processed')).toBeGreaterThan(slotBefore);
      expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL / 2);
      const found = await connection.getSignaturesForAddress(reference, {}, 'finalized');
      expect(found.map((entry) => entry.signature)).toEqual([signature]);
      const parsed = await connection.getParsedTransaction(signature, 'finalized');
      expect(parsed?.meta?.fee).toBe(5000);
      // The restored chain still executes: the payer spends what it kept.
      const again = await connection.sendTransaction(
        new Transaction().add(
          SystemProgram.transfer({
            fromPubkey: payer.publicKey,
            toPubkey: recipient,
            lamports: LAMPORTS_PER_SOL / 4,
          }),
        ),
        [payer],
      );
      expect((await connection.getSignatureStatuses([again])).value[0]?.err).toBeNull();
      expect(await connection.getBalance(recipient, 'processed')).toBe((3 * LAMPORTS_PER_SOL) / 4);
    } finally {
      await second.stop();
    }
  });

  it('should refuse to start when the state file is not one', async () => {
    const stateFile = join(dir, 'chain.json');
    writeFileSync(stateFile, '{"something":"else"}');
    await expect(startDevchain({ stateFile })).rejects.toThrow(/not a devchain state file/);
  });
});
