import {
  Connection,
  type ParsedInstruction,
  type ParsedTransactionWithMeta,
  type PartiallyDecodedInstruction,
  PublicKey,
  SystemProgram,
} from '@solana/web3.js';
import type { SolanaSettings } from '../config/solana-settings';

export type Confirmation = 'processed' | 'confirmed' | 'finalized';

/** A signature that touched an address, as getSignaturesForAddress answers it. */
export interface SignatureSeen {
  signature: string;
  confirmation: Confirmation | null;
  failed: boolean;
}

/** What verification needs of one transaction (top-level System Program transfers). */
export interface ChainTransaction {
  signature: string;
  blockTime: Date | null;
  failed: boolean;
  confirmation: Confirmation | null;
  feePayer: string;
  accountKeys: string[];
  transfers: Array<{ source: string; destination: string; lamports: bigint }>;
}

/** The chain as deposits use it; tests give a fake. */
export interface DepositChain {
  /** Newest first; `until` stops before that signature. Seen at `confirmed` or better. */
  signaturesFor(
    address: string,
    options: { until?: string; before?: string; limit: number },
  ): Promise<SignatureSeen[]>;
  transaction(signature: string): Promise<ChainTransaction | null>;
}

export const DEPOSIT_CHAIN = Symbol('DEPOSIT_CHAIN');

function isParsed(
  instruction: ParsedInstruction | PartiallyDecodedInstruction,
): instruction is ParsedInstruction {
  return 'parsed' in instruction;
}

/** The transaction's top-level System Program transfers (transfer and transferWithSeed). */
export function systemTransfers(tx: ParsedTransactionWithMeta): ChainTransaction['transfers'] {
  const transfers: ChainTransaction['transfers'] = [];
  for (const instruction of tx.transaction.message.instructions) {
    if (!isParsed(instruction) || !instruction.programId.equals(SystemProgram.programId)) continue;
    const parsed = instruction.parsed as {
      type?: string;
      info?: { source?: string; from?: string; destination?: string; lamports?: number | string };
    };
    if (parsed.type !== 'transfer' && parsed.type !== 'transferWithSeed') continue;
    const source = parsed.info?.source ?? parsed.info?.from;
    const { destination, lamports } = parsed.info ?? {};
    if (!source || !destination || lamports === undefined) continue;
    transfers.push({ source, destination, lamports: BigInt(lamports) });
  }
  return transfers;
}

/** @solana/web3.js against SOLANA_RPC_URL. */
export class Web3DepositChain implements DepositChain {
  private readonly connection: Connection;

  constructor(settings: SolanaSettings) {
    this.connection = new Connection(settings.rpcUrl, { commitment: 'confirmed' });
  }

  async signaturesFor(
    address: string,
    options: { until?: string; before?: string; limit: number },
  ): Promise<SignatureSeen[]> {
    const infos = await this.connection.getSignaturesForAddress(
      new PublicKey(address),
      options,
      'confirmed',
    );
    return infos.map((info) => ({
      signature: info.signature,
      confirmation: info.confirmationStatus ?? null,
      failed: info.err !== null,
    }));
  }

  async transaction(signature: string): Promise<ChainTransaction | null> {
    const [tx, statuses] = await Promise.all([
      this.connection.getParsedTransaction(signature, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      }),
      this.connection.getSignatureStatuses([signature], { searchTransactionHistory: true }),
    ]);
    if (!tx) return null;
    const keys = tx.transaction.message.accountKeys.map((key) => key.pubkey.toBase58());
    return {
      signature,
      blockTime: tx.blockTime ? new Date(tx.blockTime * 1000) : null,
      failed: tx.meta === null || tx.meta.err !== null,
      confirmation: statuses.value[0]?.confirmationStatus ?? 'confirmed',
      feePayer: keys[0] ?? '',
      accountKeys: keys,
      transfers: systemTransfers(tx),
    };
  }
}
