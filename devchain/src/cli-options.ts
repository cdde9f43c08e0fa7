import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DevchainOptions } from './index';

export class UsageError extends Error {}

export const USAGE = `Usage: scn-devchain [--port N] [--host ADDRESS] [--slot-ms N] [--finalize-after-slots N] [--allow-origin ORIGIN]

A local Solana chain (litesvm) with a JSON-RPC server in the real wire format.
  --port N                  JSON-RPC port (default 8899; 0 = a free port). PubSub answers on N + 1.
  --host ADDRESS            listen address (default 127.0.0.1: the faucet and demo wallet are open)
  --slot-ms N               milliseconds per slot, 10-60000 (default 400)
  --finalize-after-slots N  slots until a transaction is finalized, 1-1000 (default 32)
  --allow-origin ORIGIN     Access-Control-Allow-Origin (default *)
  --state-file PATH         keep the chain in this file between runs (created when missing)`;

function integer(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${value}")`);
  return Number(value);
}

function stateFile(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '' || value.startsWith('-'))
    throw new UsageError(`--state-file must be a file path (got "${value}")`);
  return resolve(value);
}

/** The CLI's flags, validated: any unknown flag or bad value is a UsageError. */
export function parseCliOptions(argv: string[]): DevchainOptions & { help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'slot-ms': { type: 'string' },
        'finalize-after-slots': { type: 'string' },
        'allow-origin': { type: 'string' },
        'state-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const host = values.host ?? '127.0.0.1';
  if (!/^[0-9a-fA-F.:]+$|^localhost$/.test(host))
    throw new UsageError(`--host must be an IP address or localhost (got "${host}")`);
  const origin = values['allow-origin'];
  if (origin !== undefined && origin !== '*' && !/^https?:\/\/[^\s/]+$/.test(origin))
    throw new UsageError(`--allow-origin must be * or an origin like http://localhost:3000`);
  return {
    help: values.help ?? false,
    port: integer('port', values.port, 0, 65534) ?? 8899,
    host,
    slotMs: integer('slot-ms', values['slot-ms'], 10, 60_000),
    finalizeAfterSlots: integer('finalize-after-slots', values['finalize-after-slots'], 1, 1000),
    allowOrigin: origin,
    stateFile: stateFile(values['state-file']),
  };
}
