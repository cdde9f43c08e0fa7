import net from 'node:net';
import { readAgentConfig } from '../config/agent-config';

/**
 * Which port `scn-agent enroll` asks the control plane for (EnrollRequest.requested_port). TLS
 * anywhere but 443 is itself a flag to DPI: nDPI marks such a flow "Known Protocol on Non
 * Standard Port" (docs/security.md#what-dpi-sees). So a node serves on 443 where this machine
 * has it free, and takes a persistent port of its own (the control plane draws it) where
 * something else already listens there; the operator's --public-port always wins.
 */
export const STANDARD_TLS_PORT = 443;

/** free: the core can listen there; in-use: something listens; not-permitted: no privilege. */
export type PortAvailability = 'free' | 'in-use' | 'not-permitted';
export type PortProbe = (port: number) => Promise<PortAvailability>;

/**
 * Whether the core could listen on `port` on every IPv4 address, as it does ('0.0.0.0'): a
 * listener on any address of the machine, or a dual-stack one on `::`, makes that bind fail.
 */
export function probeListenPort(port: number): Promise<PortAvailability> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve('in-use');
      else if (error.code === 'EACCES' || error.code === 'EPERM') resolve('not-permitted');
      else reject(error);
    });
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () =>
      server.close(() => resolve('free')),
    );
  });
}

export interface EnrollPortChoice {
  /** 0: the control plane picks the machine's own port. */
  requestedPort: number;
  /** Why 443 was not asked for, for the operator. */
  note: string | null;
}

const WHY_NOT: Record<Exclude<PortAvailability, 'free'>, string> = {
  'in-use': 'something on this machine already listens on port 443',
  'not-permitted': 'this user may not listen on port 443 (run enroll as root)',
};

/**
 * The operator's port when given, else 443 when the core could take it, else 0. `replacedConfig`:
 * the config `enroll --force` replaces; when that node served 443, its own core may be what
 * holds the port, so 443 is asked for again.
 */
export async function chooseRequestedPort(
  publicPort: number | undefined,
  probe: PortProbe = probeListenPort,
  replacedConfig?: string,
): Promise<EnrollPortChoice> {
  if (publicPort !== undefined) return { requestedPort: publicPort, note: null };
  const availability = await probe(STANDARD_TLS_PORT);
  if (availability === 'free') return { requestedPort: STANDARD_TLS_PORT, note: null };
  if (availability === 'in-use' && replacedConfig && (await servedPort(replacedConfig)) === 443) {
    return { requestedPort: STANDARD_TLS_PORT, note: null };
  }
  return {
    requestedPort: 0,
    note:
      `${WHY_NOT[availability]}: asking for a port of this machine's own instead, which DPI ` +
      `flags as TLS on a non-standard port (free 443 and enroll again with --public-port 443)`,
  };
}

/** The port an existing config serves, or null when there is none or it cannot be read. */
async function servedPort(configPath: string): Promise<number | null> {
  return readAgentConfig(configPath).then(
    (config) => config.publicPort,
    () => null,
  );
}
