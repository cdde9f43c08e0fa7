import { type z } from 'zod';
import { version } from '../../package.json';
import { AgentError, EXIT_CODES } from '../errors';

/** What every command writes to; tests capture it instead of the process streams. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CommandIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

export const AGENT_VERSION: string = version;

/** Validates parsed flags; the first problem becomes a usage error (exit code 2). */
export function parseFlags<T extends z.ZodType>(schema: T, flags: unknown): z.infer<T> {
  const parsed = schema.safeParse(flags);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0];
    const name =
      typeof flag === 'string' ? `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : '';
    throw new AgentError(`${name ? `${name}: ` : ''}${issue?.message ?? 'invalid flags'}`, {
      exitCode: EXIT_CODES.usage,
      hint: 'see scn-agent <command> --help',
    });
  }
  return parsed.data;
}
