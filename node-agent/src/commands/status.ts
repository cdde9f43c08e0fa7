import {
  type CertificateStatus,
  certificateStatus,
  describeCertificateStatus,
} from '../certificates/certificate-status';
import type { Command } from 'commander';
import { z } from 'zod';
import {
  type CoreAuditSummary,
  type LastReportSummary,
  readAgentConfig,
  resolveConfigPath,
} from '../config/agent-config';
import { type Connectivity, ControlPlaneClient } from '../grpc/control-plane-client';
import { describeAudit, describeFinding } from '../proxy-core/core-audit';
import { canConnect } from '../system/net';
import { tierCapacity } from '../system/tier';
import {
  type CoreConfigVerdict,
  describeTransport,
  summarizeTransport,
  testCoreConfig,
  type TransportSummary,
} from './transport-check';
import { AGENT_VERSION, type CommandIo, parseFlags, processIo } from './context';

export const statusFlagsSchema = z.object({
  json: z.boolean().default(false),
  config: z.string().optional(),
  timeout: z.coerce.number().int().min(100).max(60_000).default(3_000),
});
export type StatusFlags = z.input<typeof statusFlagsSchema>;

export interface AgentStatus {
  version: string;
  configPath: string;
  nodeId: string;
  tier: string;
  capacity: number | null;
  /** Reachable when one of its endpoints (replicas, a name's addresses) is; each one's check. */
  controlPlane: { target: string; tls: boolean } & Connectivity;
  lastReport: LastReportSummary | null;
  reliability: number | null;
  available: boolean | null;
  clients: { allowed: number; active: number | null; appliedClientSetVersion: string };
  proxyCore: {
    kind: string;
    binary: string;
    apiPort: number;
    /** The core's API answers on loopback right now (the daemon and its core are up). */
    apiReachable: boolean;
    /** The state the daemon sent in its last report. */
    lastReportedState: string | null;
  };
  /** The inbound that runs and whether the core accepts its config (transport-check.ts). */
  transport: TransportSummary & { coreAccepts: CoreConfigVerdict };
  /** Who issued the TLS certificate and what the agent does next (null without TLS). */
  certificate: CertificateStatus | null;
  /** The daemon's audits of the core's real users (proxy-core/core-audit.ts). */
  coreAudit: {
    last: CoreAuditSummary | null;
    /** The last audit that removed, restored or cut something, or restarted the core. */
    lastFinding: CoreAuditSummary | null;
  };
}

/** Everything `status` shows. Reachability is a channel check (waitForReady), never a Report. */
export async function collectStatus(
  rawFlags: StatusFlags,
  env?: NodeJS.ProcessEnv,
): Promise<AgentStatus> {
  const flags = parseFlags(statusFlagsSchema, rawFlags);
  const configPath = resolveConfigPath(flags.config, env);
  const config = await readAgentConfig(configPath);
  let reachability: Connectivity;
  try {
    const client = new ControlPlaneClient(
      {
        target: config.controlPlane,
        tls: config.tls,
        caFile: config.caFile,
        insecure: config.insecure,
      },
      config,
    );
    try {
      reachability = await client.checkConnectivity(flags.timeout);
    } finally {
      client.close();
    }
  } catch (error) {
    reachability = { reachable: false, error: (error as Error).message, endpoints: [] };
  }
  const last = config.lastReport ?? null;
  return {
    version: AGENT_VERSION,
    configPath,
    nodeId: config.nodeId,
    tier: config.tier,
    capacity: tierCapacity(config.tier),
    controlPlane: { target: config.controlPlane, tls: config.tls, ...reachability },
    lastReport: last,
    reliability: last?.reliability ?? null,
    available: last?.available ?? null,
    clients: {
      allowed: config.allowedClients.length,
      active: last?.activeClients ?? null,
      appliedClientSetVersion: config.appliedClientSetVersion,
    },
    proxyCore: {
      kind: config.core.kind,
      binary: config.core.binary,
      apiPort: config.core.apiPort,
      apiReachable: await canConnect('127.0.0.1', config.core.apiPort, 500),
      lastReportedState: last?.proxyCoreState ?? null,
    },
    transport: { ...(await summarizeTransport(config)), coreAccepts: await testCoreConfig(config) },
    certificate: certificateStatus(config),
    coreAudit: {
      last: config.lastCoreAudit ?? null,
      lastFinding: config.lastCoreAuditFinding ?? null,
    },
  };
}

/** `serving plan r4; last plan r5 refused at …: why` */
function describePlan(transport: TransportSummary): string {
  const served =
    transport.planRevision === '0' ? 'no plan received' : `serving plan r${transport.planRevision}`;
  const last = transport.lastPlan;
  if (!last || last.revision === transport.planRevision) return served;
  return `${served}; last plan r${last.revision} ${last.outcome} at ${last.at}${
    last.reason ? `: ${last.reason}` : ''
  }`;
}

export function renderStatusTable(status: AgentStatus): string {
  const last = status.lastReport;
  const lastText = last
    ? `${last.at} ${last.error ? `FAILED: ${last.error}` : last.accepted ? 'accepted' : 'not counted'}${
        last.endpoint && !last.error ? ` (answered by ${last.endpoint})` : ''
      }`
    : 'none yet';
  const rows: Array<[string, string]> = [
    ['Agent version', status.version],
    ['Config', status.configPath],
    ['Node id', status.nodeId],
    ['Tier', `${status.tier} (up to ${status.capacity ?? '?'} clients)`],
    [
      'Control plane',
      `${status.controlPlane.target} (${status.controlPlane.tls ? 'TLS' : 'plaintext'}) ${
        status.controlPlane.reachable
          ? // Several replicas: reachable when one is; the others are named.
            `reachable${status.controlPlane.error ? ` (not every replica: ${status.controlPlane.error})` : ''}`
          : `UNREACHABLE${status.controlPlane.error ? `: ${status.controlPlane.error}` : ''}`
      }`,
    ],
    ['Last report', lastText],
    ['Reliability', status.reliability === null ? 'unknown' : `${status.reliability}%`],
    ['Available', status.available === null ? 'unknown' : status.available ? 'yes' : 'no'],
    [
      'Clients',
      `${status.clients.allowed} allowed (set v${status.clients.appliedClientSetVersion}), ${status.clients.active ?? '?'} active`,
    ],
    [
      'Proxy core',
      `${status.proxyCore.kind} ${status.proxyCore.apiReachable ? 'API answering' : 'API not answering'}` +
        ` on 127.0.0.1:${status.proxyCore.apiPort}; last reported ${status.proxyCore.lastReportedState ?? 'n/a'}`,
    ],
    ['Transport', describeTransport(status.transport)],
    ['Inbound plan', describePlan(status.transport)],
    ...(status.certificate
      ? [['Certificate', describeCertificateStatus(status.certificate)] as [string, string]]
      : []),
    [
      'Core config',
      status.transport.coreAccepts.accepted === null
        ? `not tested: ${status.transport.coreAccepts.output}`
        : status.transport.coreAccepts.accepted
          ? `accepted (${status.transport.coreAccepts.command})`
          : `REFUSED by ${status.transport.coreAccepts.command}: ${status.transport.coreAccepts.output}`,
    ],
    ['Core audit', describeAudit(status.coreAudit.last)],
    ['Audit finding', describeFinding(status.coreAudit.lastFinding)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n';
}

export async function status(
  rawFlags: StatusFlags,
  io: CommandIo = processIo,
  env?: NodeJS.ProcessEnv,
): Promise<AgentStatus> {
  const result = await collectStatus(rawFlags, env);
  io.out(rawFlags.json ? `${JSON.stringify(result, null, 2)}\n` : renderStatusTable(result));
  return result;
}

export function registerStatus(program: Command, io: CommandIo = processIo): void {
  program
    .command('status')
    .description(
      'node id, control plane reachability, last report, reliability, clients, proxy core',
    )
    .option('--json', 'machine-readable output')
    .option(
      '--config <path>',
      'config file (default $SCN_AGENT_CONFIG or /etc/scn-agent/config.json)',
    )
    .option('--timeout <ms>', 'how long to wait for the control plane', '3000')
    .action(async (flags: StatusFlags) => {
      await status(flags, io);
    });
}
