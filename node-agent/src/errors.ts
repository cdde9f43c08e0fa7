import { CommanderError } from 'commander';

/** sysexits(3) codes the agent uses, so scripts and systemd can tell failures apart. */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  /** Bad flags (commander or our zod validation). */
  usage: 2,
  /** The control plane cannot be reached. */
  unavailable: 69,
  /** The config file is missing, unreadable, invalid or too open. */
  config: 78,
} as const;

/** An error the operator can act on: `message` says what, `hint` says how to fix it. */
export class AgentError extends Error {
  readonly exitCode: number;
  readonly hint?: string;

  constructor(
    message: string,
    options: { exitCode?: number; hint?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentError';
    this.exitCode = options.exitCode ?? EXIT_CODES.failure;
    this.hint = options.hint;
  }
}

/**
 * The one error printer: writes the message (and hint) and returns the exit code. Commander has
 * already printed its own usage errors, so those only map to an exit code.
 */
export function handleError(error: unknown, writeErr: (text: string) => void): number {
  if (error instanceof CommanderError) {
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    ) {
      return EXIT_CODES.ok;
    }
    return EXIT_CODES.usage;
  }
  if (error instanceof AgentError) {
    if (error.message) writeErr(`scn-agent: ${error.message}\n`);
    if (error.hint) writeErr(`  hint: ${error.hint}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  writeErr(`scn-agent: unexpected error: ${message}\n`);
  return EXIT_CODES.failure;
}
