import { FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';

/** A transaction error in the JSON shape real RPC nodes answer (`"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`). */
export type TransactionErrorJson = string | Record<string, unknown>;

// The order of agave's TransactionError / InstructionError variants without fields, as litesvm
// numbers them (litesvm/dist/internal.d.ts: TransactionErrorFieldless, InstructionErrorFieldless).
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

/**
 * Errors after which a real leader still puts the transaction in a block and charges its fee: the
 * instruction ran and failed. Every other error (bad blockhash, no fee payer funds, bad signature,
 * already processed) means the transaction never lands: no fee, no record, no status.
 */
export function landsOnChain(err: TransactionErrorJson): boolean {
  if (typeof err === 'string') return false;
  return (
    'InstructionError' in err ||
    'InsufficientFundsForRent' in err ||
    'DuplicateInstruction' in err ||
    'ProgramExecutionTemporarilyRestricted' in err
  );
}

function instructionErrorJson(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err] ?? 'GenericError';
  const fields = err as { code?: number; msg?: string };
  if (typeof fields.code === 'number') return { Custom: fields.code };
  if (typeof fields.msg === 'string') return { BorshIoError: fields.msg };
  return 'GenericError';
}

/** litesvm's error object (a number for fieldless variants, a class instance otherwise) as RPC JSON. */
export function transactionErrorJson(result: FailedTransactionMetadata): TransactionErrorJson {
  const err: unknown = result.err();
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? 'SanitizeFailure';
  const name = (err as { constructor: { name: string } }).constructor.name;
  const fields = err as { index?: number; accountIndex?: number; err?: () => unknown };
  if (name === 'TransactionErrorInstructionError' && typeof fields.err === 'function')
    return { InstructionError: [fields.index, instructionErrorJson(fields.err())] };
  if (name === 'TransactionErrorDuplicateInstruction')
    return { DuplicateInstruction: fields.index };
  if (name === 'TransactionErrorInsufficientFundsForRent')
    return { InsufficientFundsForRent: { account_index: fields.accountIndex } };
  if (name === 'TransactionErrorProgramExecutionTemporarilyRestricted')
    return { ProgramExecutionTemporarilyRestricted: { account_index: fields.accountIndex } };
  return 'SanitizeFailure';
}

/** The message a real node puts in a preflight failure ("Transaction simulation failed: ..."). */
export function describeError(err: TransactionErrorJson): string {
  if (typeof err === 'string') {
    if (err === 'BlockhashNotFound') return 'Blockhash not found';
    if (err === 'InsufficientFundsForFee')
      return 'Attempt to debit an account but found no record of a prior credit.';
    if (err === 'AlreadyProcessed') return 'This transaction has already been processed';
    return err;
  }
  const instruction = err.InstructionError as [number, TransactionErrorJson] | undefined;
  if (instruction) {
    const [index, inner] = instruction;
    const detail =
      typeof inner === 'object' && 'Custom' in inner
        ? `custom program error: 0x${Number(inner.Custom).toString(16)}`
        : String(inner);
    return `Error processing Instruction ${index}: ${detail}`;
  }
  if ('InsufficientFundsForRent' in err) {
    const { account_index } = err.InsufficientFundsForRent as { account_index: number };
    return `Transaction results in an account (${account_index}) with insufficient funds for rent`;
  }
  return JSON.stringify(err);
}

export type ExecutionOutcome =
  | { ok: true; meta: TransactionMetadata }
  | { ok: false; err: TransactionErrorJson; meta: TransactionMetadata };

export function outcomeOf(
  result: TransactionMetadata | FailedTransactionMetadata,
): ExecutionOutcome {
  if (result instanceof FailedTransactionMetadata)
    return { ok: false, err: transactionErrorJson(result), meta: result.meta() };
  return { ok: true, meta: result };
}
