import { access } from 'node:fs/promises';
import os from 'node:os';
import type { Command } from 'commander';
import { canonicalHost, serverCountrySchema, serverLocationSchema, type Tier } from '@scn/proto';
import { z } from 'zod';
import { type AgentConfigInput, resolveConfigPath, writeAgentConfig } from '../config/agent-config';
import { AgentError } from '../errors';
import { ControlPlaneClient, describeGrpcError } from '../grpc/control-plane-client';
import { parseHostPort } from '../grpc/control-plane-endpoints';
import { type HardwareSummary, readHardware, toProtoHardware } from '../system/hardware';
import { checkTier, tierCapacity } from '../system/tier';
import { describeInbound } from '../proxy-core/inbound-plan';
import {
  acmeSettingsFromFlags,
  certificateFlagShapes,
  obtainAtEnrollment,
  withCertificateOptions,
} from './enroll-certificate';
import {
  createInbound,
  DEFAULT_REALITY_DEST,
  ensureSelfSignedCertificate,
  tlsDirFor,
} from '../proxy-core/inbound-setup';
import {
  checkInboundFlags,
  checkOperatorCertificate,
  overriddenFlags,
  resolveEnrollPlan,
} from './enroll-inbound';
import { AGENT_VERSION, type CommandIo, parseFlags, processIo } from './context';
import { controlPlaneListFlag, enrollConnection } from './enroll-connection';
import { chooseRequestedPort, type PortProbe } from './enroll-port';

const TIER_TO_PROTO = {
  tier1: 'TIER_1',
  tier2: 'TIER_2',
  tier3: 'TIER_3',
  tier4: 'TIER_4',
} as const;
const TIER_FROM_PROTO: Record<string, keyof typeof TIER_TO_PROTO> = {
  TIER_1: 'tier1',
  TIER_2: 'tier2',
  TIER_3: 'tier3',
  TIER_4: 'tier4',
};

const DEFAULT_CORE_BINARY = { xray: '/usr/local/bin/xray', v2ray: '/usr/bin/v2ray' } as const;

export const enrollFlagsSchema = z.object({
  server: controlPlaneListFlag(),
  token: z
    .string({ error: 'is required (the one-time token from the setup wizard)' })
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the 43-character token from the setup wizard'),
  tier: z.enum(['tier1', 'tier2', 'tier3', 'tier4'], {
    error: 'must be tier1, tier2, tier3 or tier4',
  }),
  // What clients dial, in the control plane's canonical form (IPv6 unbracketed: links bracket it).
  publicHost: z
    .string()
    .refine(
      (host) => canonicalHost(host) !== null,
      'must be a host name, an IPv4 or an IPv6 address (e.g. 2001:db8::1)',
    )
    .transform((host) => canonicalHost(host)!)
    .optional(),
  /** Given: asked of the control plane (requested_port). Absent: 443 when free (enroll-port.ts). */
  publicPort: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(1, 'must be 1-65535')
    .max(65535, 'must be 1-65535')
    .optional(),
  /** tcp (default), ws or grpc: the VLESS transport. */
  transport: z.enum(['tcp', 'ws', 'grpc'], { error: 'must be tcp, ws or grpc' }).optional(),
  /**
   * reality (the Xray default), tls (the v2ray default) or none: plaintext VLESS, only for
   * loopback tests (docs/operators.md); a control plane plan replaces it.
   */
  security: z
    .enum(['reality', 'tls', 'none'], { error: 'must be reality, tls or none' })
    .optional(),
  realityDest: z
    .string()
    .refine((s) => parseHostPort(s) !== null, 'must be host:port, e.g. www.debian.org:443')
    .optional(),
  realitySni: z
    .string()
    .regex(/^(?=.{1,253}$)[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be a host name')
    .optional(),
  certificateFile: z.string().min(1).optional(),
  keyFile: z.string().min(1).optional(),
  /**
   * The certificate: the operator's own name (its DNS points here), the ACME directory (default:
   * Let's Encrypt, except for a control plane on loopback: development and tests never ask a
   * public CA), its HTTPS CA, the HTTP-01 port, a contact.
   */
  ...certificateFlagShapes,
  insecure: z.boolean().default(false),
  caFile: z.string().min(1).optional(),
  core: z.enum(['xray', 'v2ray'], { error: 'must be xray or v2ray' }).default('xray'),
  coreBinary: z.string().min(1).optional(),
  coreApiPort: z.coerce.number().int().min(1).max(65535).default(10085),
  coreWorkDir: z.string().min(1, 'must be a folder path').default('/var/lib/scn-agent/core'),
  config: z.string().optional(),
  force: z.boolean().default(false),
  /** Where the server is, for the market (ISO 3166-1 alpha-2; `de` is taken as `DE`). */
  country: serverCountrySchema.optional(),
  /** Free text on one line, at most 100 characters, e.g. "Frankfurt, Hetzner FSN1". */
  location: serverLocationSchema.optional(),
});
/** Raw flags as commander (or a caller) gives them: validated by enrollFlagsSchema. */
export type EnrollFlags = Partial<Record<keyof z.input<typeof enrollFlagsSchema>, unknown>>;

export interface EnrollDeps {
  io?: CommandIo;
  hardware?: () => Promise<HardwareSummary>;
  env?: NodeJS.ProcessEnv;
  probePort?: PortProbe;
}

export interface EnrollResult {
  configPath: string;
  nodeId: string;
  tier: string;
}

/** The first non-internal IPv4 address: on a typical VPS that is the public one. */
function guessPublicHost(): string | undefined {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return undefined;
}

/** `scn-agent enroll`: exchanges the one-time token for the node's credential and writes the config. */
export async function enroll(rawFlags: EnrollFlags, deps: EnrollDeps = {}): Promise<EnrollResult> {
  const io = deps.io ?? processIo;
  const flags = parseFlags(enrollFlagsSchema, rawFlags);
  const configPath = resolveConfigPath(flags.config, deps.env);
  if (
    !flags.force &&
    (await access(configPath).then(
      () => true,
      () => false,
    ))
  ) {
    throw new AgentError(`this node is already enrolled (${configPath} exists)`, {
      hint: 'pass --force to enroll again with a new token (the old node id stops working)',
    });
  }
  const publicHost = flags.publicHost ?? guessPublicHost();
  if (!publicHost) {
    throw new AgentError("cannot tell this machine's public address", {
      exitCode: 2,
      hint: 'pass --public-host <host name or IP clients connect to>',
    });
  }

  const inboundChoice = checkInboundFlags(flags);
  await checkOperatorCertificate(flags);
  const acme = acmeSettingsFromFlags(flags, inboundChoice.security);
  if (inboundChoice.security === 'tls' && !flags.certificateFile) {
    // Made before the token is spent: a folder the agent cannot write must not cost the token.
    await ensureSelfSignedCertificate(tlsDirFor(configPath), publicHost).catch((error: Error) => {
      throw new AgentError(`cannot write the TLS certificate: ${error.message}`, {
        hint: `run as root, or pass --config in a folder you can write (${tlsDirFor(configPath)})`,
      });
    });
  }

  const hardware = await (deps.hardware ?? readHardware)();
  const check = checkTier(hardware, flags.tier);
  if (!check.ok) {
    throw new AgentError(`refusing to enroll: ${check.reason}`, {
      hint: 'pick a lower tier in the setup wizard (and use its new token), or resize the VPS',
    });
  }

  const port = await chooseRequestedPort(flags.publicPort, deps.probePort, configPath);
  if (port.note) io.err(`scn-agent: ${port.note}\n`);

  const connection = enrollConnection(flags.server, flags);
  const client = new ControlPlaneClient(connection);
  let response;
  try {
    response = await client.enroll({
      enrollmentToken: flags.token,
      tier: TIER_TO_PROTO[flags.tier] as Tier,
      agentVersion: AGENT_VERSION,
      hardware: toProtoHardware(hardware),
      country: flags.country ?? '',
      location: flags.location ?? '',
      requestedPort: port.requestedPort,
      core: flags.core,
      publicHost,
    });
  } catch (error) {
    throw describeGrpcError(error, 'enrollment failed', connection);
  } finally {
    client.close();
  }

  const tier = TIER_FROM_PROTO[response.tier] ?? flags.tier;
  const plan = resolveEnrollPlan(flags.core, inboundChoice, response.inboundPlan ?? null, flags);
  if (plan.refused) io.err(`scn-agent: ${plan.refused}\n`);
  const overridden = overriddenFlags(flags, plan);
  if (overridden) io.err(`scn-agent: ${overridden}\n`);
  const inbound = await createInbound({
    kind: flags.core,
    publicHost,
    tlsDir: tlsDirFor(configPath),
    security: plan.security,
    network: plan.network,
    planRevision: plan.revision,
    realityDest: flags.realityDest,
    realitySni: flags.realitySni,
    certificateFile: flags.certificateFile,
    keyFile: flags.keyFile,
  });
  const config: AgentConfigInput = {
    controlPlane: flags.server,
    tls: connection.tls,
    insecure: flags.insecure,
    caFile: connection.caFile,
    nodeId: response.nodeId,
    nodeSecret: response.nodeSecret,
    tier,
    publicHost,
    publicPort: plan.port,
    core: {
      kind: flags.core,
      binary: flags.coreBinary ?? DEFAULT_CORE_BINARY[flags.core],
      apiPort: flags.coreApiPort,
      workDir: flags.coreWorkDir,
    },
    inbound,
    ...(plan.refused
      ? {
          lastPlan: {
            revision: plan.refusedRevision,
            at: new Date().toISOString(),
            outcome: 'refused' as const,
            reason: plan.refused,
          },
        }
      : {}),
    reportIntervalMs: response.reportIntervalMs || 60_000,
    appliedClientSetVersion: '0',
    allowedClients: [],
    acme,
    ...(response.hostName ? { hostName: response.hostName } : {}),
  };
  await writeAgentConfig(configPath, config);
  const certificateLine = await obtainAtEnrollment(configPath, io);
  const place = [flags.location, flags.country].filter(Boolean).join(', ');
  io.out(
    `Enrolled node ${response.nodeId} (${tier}, up to ${tierCapacity(tier) ?? '?'} clients` +
      `${place ? `, ${place}` : ''}).\n` +
      `Inbound: ${describeInbound(inbound, plan.port)}` +
      `${inbound.security === 'reality' ? ` (REALITY public key ${inbound.pbk}, short id ${inbound.sid}, sni ${inbound.sni})` : ''}.\n` +
      certificateLine +
      `Config written to ${configPath} (mode 0600). Start the agent: scn-agent run\n`,
  );
  return { configPath, nodeId: response.nodeId, tier };
}

export function registerEnroll(program: Command, io: CommandIo = processIo): void {
  withCertificateOptions(program.command('enroll'))
    .description("exchange a one-time enrollment token for this node's credential")
    .option(
      '--server <host:port>',
      "control plane gRPC address; several replicas: host:port,host:port (a name's every A/AAAA record counts)",
    )
    .option('--token <token>', 'one-time token from the setup wizard')
    .option('--tier <tier>', 'tier1 | tier2 | tier3 | tier4', 'tier2')
    .option(
      '--public-host <host>',
      'host name or IP clients connect to (default: first public IPv4)',
    )
    .option(
      '--public-port <port>',
      "port clients connect to (default: 443 when free here, else a persistent port of this machine's own)",
    )
    .option(
      '--transport <network>',
      "VLESS transport: tcp (default) | ws | grpc; the control plane's plan, when it sends one, decides",
    )
    .option(
      '--security <kind>',
      'reality (default with xray) | tls (default with v2ray) | none (loopback tests only)',
    )
    .option('--reality-dest <host:port>', `REALITY target (default ${DEFAULT_REALITY_DEST})`)
    .option('--reality-sni <name>', 'REALITY server name (default: the target host)')
    .option(
      '--certificate-file <path>',
      'TLS: a CA-issued certificate (PEM) instead of self-signed',
    )
    .option('--key-file <path>', "TLS: that certificate's private key (PEM)")
    .option('--insecure', 'plaintext gRPC to a non-loopback control plane (not recommended)')
    .option('--ca-file <path>', 'CA certificate of the control plane (implies TLS)')
    .option('--core <kind>', 'proxy core: xray | v2ray', 'xray')
    .option('--core-binary <path>', 'path of the core binary')
    .option('--core-api-port <port>', 'loopback port of the core API', '10085')
    .option(
      '--core-work-dir <path>',
      "folder of the core's generated config",
      '/var/lib/scn-agent/core',
    )
    .option(
      '--config <path>',
      'config file (default $SCN_AGENT_CONFIG or /etc/scn-agent/config.json)',
    )
    .option('--country <code>', 'country of this server for the market, ISO 3166-1 alpha-2 (DE)')
    .option('--location <text>', 'where this server is, for the market (e.g. "Frankfurt")')
    .option('--force', 'enroll again even when a config exists')
    .action(async (flags: EnrollFlags) => {
      await enroll(flags, { io });
    });
}
