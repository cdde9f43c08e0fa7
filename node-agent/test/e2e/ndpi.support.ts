import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestNetns } from './netns.support';

const execFileAsync = promisify(execFile);

/**
 * Passive DPI as a censor's box does it, with Debian's nDPI (`libndpi-bin`): tcpdump captures a
 * namespace's traffic, ndpiReader classifies it flow by flow (docs/security.md#what-dpi-sees).
 */

export const NDPI_READER = '/usr/bin/ndpiReader';
export const TCPDUMP = '/usr/bin/tcpdump';

/** One flow as `ndpiReader -v 2` prints it. */
export interface NdpiFlow {
  client: string;
  server: string;
  /** The detected protocol, e.g. `TLS` or `TLS.Google` (master.app). */
  protocol: string;
  sni: string;
  tlsVersion: string;
  /** Every flow risk nDPI set, in its own words ("Missing SNI TLS Extension"). */
  risks: string[];
  riskScore: number;
}

/**
 * The flows of `ndpiReader -v 2` output. A flow line reads
 * `1 TCP a:p <-> b:q [proto: 91/TLS][...][Hostname/SNI: x][Risk: ** A **** B **][Risk Score: 60][TLSv1.3]...`.
 */
export function parseNdpiFlows(output: string): NdpiFlow[] {
  const flows: NdpiFlow[] = [];
  for (const line of output.split('\n')) {
    const head = /^\s*\d+\s+TCP\s+(\S+)\s+<->\s+(\S+)\s+\[proto: [\d.]+\/([^\]]+)\]/.exec(line);
    if (!head) continue;
    const field = (name: string) => new RegExp(`\\[${name}: ([^\\]]*)\\]`).exec(line)?.[1] ?? '';
    const riskText = /\[Risk: ((?:\*\* [^*]+ \*\*)+)\]/.exec(line)?.[1] ?? '';
    flows.push({
      client: head[1]!,
      server: head[2]!,
      protocol: head[3]!,
      sni: field('Hostname/SNI'),
      tlsVersion: /\[(TLSv1(?:\.\d)?|SSLv3)\]/.exec(line)?.[1] ?? '',
      risks: [...riskText.matchAll(/\*\* ([^*]+?) \*\*/g)].map((m) => m[1]!).sort(),
      riskScore: Number(field('Risk Score') || 0),
    });
  }
  return flows;
}

/** Classifies a capture file with nDPI: `ndpiReader -i <file> -v 2`. */
export async function classifyPcap(file: string): Promise<NdpiFlow[]> {
  const { stdout } = await execFileAsync(NDPI_READER, ['-i', file, '-v', '2'], {
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (/Unsupported datalink/.test(stdout))
    throw new Error(`ndpiReader cannot read ${file}: ${stdout}`);
  return parseNdpiFlows(stdout);
}

export interface Capture {
  /** Stops tcpdump and waits until the file is complete. */
  stop(): Promise<void>;
}

/**
 * `tcpdump -i <veth> -U -w <file> tcp port <port>` on this machine's end of the namespace's veth
 * pair: only the client's connections to the node cross it on that port (the core's own fetches
 * stay on the namespace's loopback).
 */
export async function startCapture(netns: TestNetns, port: number, file: string): Promise<Capture> {
  const { stdout } = await execFileAsync('ip', [
    '-o',
    'addr',
    'show',
    'to',
    `${netns.hostAddress}/32`,
  ]);
  const device = /^\d+:\s+([^\s:@]+)/.exec(stdout)?.[1];
  if (!device) throw new Error(`no interface holds ${netns.hostAddress}: ${stdout}`);
  // --immediate-mode: without it the kernel holds packets in its ring until a block fills or
  // times out, and a capture stopped right after the fetches writes none ("0 packets captured").
  const child = spawn(
    TCPDUMP,
    ['-i', device, '--immediate-mode', '-U', '-n', '-w', file, `tcp port ${port}`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`tcpdump did not start: ${output}`)), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tcpdump exited (${code}): ${output}`));
    });
  });
  return {
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT'); // flushes and closes the file
      await exited;
    },
  };
}
