import {
  DEPOSIT_ROUTES,
  type DepositAddressResponse,
  type DepositTransfersResponse,
  type DepositTransferView,
} from '@scn/proto';
import {
  type Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionSignature,
} from '@solana/web3.js';
import type { TestApp } from './test-app';

/**
 * Per-account deposit addresses on the real local chain: paying them as an exchange
 * does (no reference, any amount, from a wallet that is not the account's), and reading what
 * the control plane recorded.
 */
export interface Who {
  uuid: string;
  cookie: string;
  userType: 'client' | 'node';
}

export async function addressOf(t: TestApp, who: Who): Promise<DepositAddressResponse> {
  const response = await t.http().get(DEPOSIT_ROUTES.depositAddress).set('Cookie', who.cookie);
  if (response.status !== 200)
    throw new Error(`deposit-address: ${response.status} ${response.text}`);
  return response.body as DepositAddressResponse;
}

export async function transfersOf(t: TestApp, who: Who): Promise<DepositTransfersResponse> {
  const response = await t.http().get(DEPOSIT_ROUTES.depositTransfers).set('Cookie', who.cookie);
  if (response.status !== 200) throw new Error(`transfers: ${response.status} ${response.text}`);
  return response.body as DepositTransfersResponse;
}

/** Polls the history until `done` holds for the transfer of `signature` (or throws). */
export async function waitForTransfer(
  t: TestApp,
  who: Who,
  signature: string,
  done: (transfer: DepositTransferView) => boolean,
  timeoutMs = 10_000,
): Promise<DepositTransferView> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const found = (await transfersOf(t, who)).transfers.find((x) => x.signature === signature);
    if (found && done(found)) return found;
    if (Date.now() > deadline)
      throw new Error(`transfer ${signature}: ${JSON.stringify(found ?? 'not seen')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The demo wallet pays a transfer request with no reference (a phone wallet, an exchange). */
export async function payFromDemoWallet(
  demoWalletUrl: string,
  address: string,
  amount: string,
  mint?: string,
): Promise<string> {
  const url = `solana:${address}?amount=${amount}${mint ? `&spl-token=${mint}` : ''}`;
  const paid = await fetch(`${demoWalletUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  if (!paid.ok) throw new Error(`the demo wallet answered ${paid.status}: ${await paid.text()}`);
  return ((await paid.json()) as { signature: string }).signature;
}

export async function fundedKeypair(connection: Connection, sol: number): Promise<Keypair> {
  const keypair = Keypair.generate();
  const signature = await connection.requestAirdrop(keypair.publicKey, sol * LAMPORTS_PER_SOL);
  await reach(connection, signature, 'confirmed');
  return keypair;
}

/** One transaction of System Program transfers to many recipients, without preflight. */
export async function sendMany(
  connection: Connection,
  from: Keypair,
  payments: Array<{ to: string; lamports: bigint }>,
): Promise<TransactionSignature> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight });
  for (const { to, lamports } of payments)
    tx.add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: new PublicKey(to), lamports }),
    );
  tx.sign(from);
  return connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
}

/** Waits until the signature reaches `level` (or throws after `timeoutMs`). */
export async function reach(
  connection: Connection,
  signature: string,
  level: 'confirmed' | 'finalized',
  timeoutMs = 10_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const status = value[0]?.confirmationStatus;
    if (status === 'finalized' || (level === 'confirmed' && status === 'confirmed')) return;
    if (Date.now() > deadline) throw new Error(`${signature} did not reach ${level}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
