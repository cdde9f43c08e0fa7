import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AgentError, EXIT_CODES } from '../errors';
import { CONTROL_PLANE_LIST_MESSAGE, parseControlPlaneList } from '../grpc/control-plane-endpoints';

/**
 * The agent's state file: the node's credential and everything `run`, `status` and `doctor`
 * need. It holds the node secret, so it is written 0600 and refused when group/others can read it.
 */

export const DEFAULT_CONFIG_PATH = '/etc/scn-agent/config.json';
export const CONFIG_ENV = 'SCN_AGENT_CONFIG';

/** --config, else $SCN_AGENT_CONFIG, else the default. */
export function resolveConfigPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag || env[CONFIG_ENV] || DEFAULT_CONFIG_PATH);
}

const tierId = z.enum(['tier1', 'tier2', 'tier3', 'tier4']);
const port = z.number().int().min(1).max(65535);
const uint64 = z.string().regex(/^\d{1,20}$/, 'must be a decimal unsigned integer');

/** The outcome of one audit of the core's users (proxy-core/core-audit.ts). */
const coreAuditSummary = z.object({
  at: z.string(),
  mechanism: z.enum(['xray_inbound_users', 'v2ray_user_counters']).nullable(),
  usersSeen: z.number().int().min(0),
  foreignRemoved: z.array(z.string()),
  restored: z.array(z.string()),
  revokedStillConnected: z.array(z.string()),
  reset: z.enum(['foreign_users', 'revoked_client_still_connected', 'network_changed']).nullable(),
  error: z.string().nullable(),
});

export const agentConfigSchema = z.object({
  /**
   * gRPC target of the control plane, `host:port`, or its replicas' `host:port,host:port` (the
   * agent spreads over them and fails over: grpc/control-plane-endpoints.ts).
   */
  controlPlane: z
    .string()
    .refine((text) => parseControlPlaneList(text) !== null, CONTROL_PLANE_LIST_MESSAGE),
  /**
   * With several endpoints: after a failover, how often (ms, each wait drawn between this and
   * twice it) the agent checks the endpoint its node id picks, to return there once it answers
   * (grpc/preferred-endpoint-return.ts). Absent: 30 s.
   */
  preferredEndpointCheckMs: z.number().int().min(1000).max(3_600_000).optional(),
  tls: z.boolean(),
  /** Plaintext to a non-loopback host was explicitly allowed (`enroll --insecure`). */
  insecure: z.boolean().default(false),
  caFile: z.string().min(1).optional(),
  nodeId: z.string().uuid('must be a UUID'),
  nodeSecret: z.string().min(1, 'is required'),
  tier: tierId,
  publicHost: z.string().min(1, 'is required').max(253),
  publicPort: port,
  core: z.object({
    kind: z.enum(['xray', 'v2ray']),
    binary: z.string().min(1),
    apiPort: port,
    workDir: z.string().min(1),
  }),
  /**
   * The VLESS inbound: REALITY (Xray) or TLS (v2ray) over tcp, ws or grpc. Keys and
   * certificate stay when a plan changes the transport, so clients keep their pins. A config
   * written before secure transports has none and reads as `security: none` until the control plane's
   * first inbound plan secures it.
   */
  inbound: z
    .object({
      security: z.enum(['none', 'tls', 'reality']),
      network: z.enum(['tcp', 'ws', 'grpc']),
      listen: z.string().optional(),
      sni: z.string().optional(),
      fp: z.string().optional(),
      pbk: z.string().optional(),
      sid: z.string().optional(),
      flow: z.string().optional(),
      /** WebSocket path (`/` + 16 hex digits), for network ws. */
      path: z.string().optional(),
      /** gRPC service name (16 hex digits), for network grpc. */
      serviceName: z.string().optional(),
      certificateFile: z.string().optional(),
      keyFile: z.string().optional(),
      /** The certificate is the agent's own: its pins (and PEM) are reported for the links. */
      selfSigned: z.boolean().optional(),
      /**
       * Where the certificate comes from: `acme` (a public CA: no pin), `operator`
       * (--certificate-file), `self_signed` (the fallback, pinned). Absent in older configs:
       * `selfSigned` tells.
       */
      certificateSource: z.enum(['acme', 'operator', 'self_signed']).optional(),
      /** Why a self-signed certificate serves although the node asked a CA (one line). */
      certificateProblem: z.string().max(300).optional(),
      realityPrivateKey: z.string().optional(),
      realityDest: z.string().optional(),
      /** The InboundPlan.revision this inbound serves ('0': none received). */
      planRevision: uint64.default('0'),
    })
    .default({ security: 'none', network: 'tcp', planRevision: '0' }),
  /**
   * Publicly trusted certificates: the ACME CA, where the HTTP-01 challenge is
   * answered, and the operator's own domain. Absent (configs before ACME certificates): as
   * `defaultAcmeSettings` decides from the control plane's address.
   */
  acme: z
    .object({
      enabled: z.boolean(),
      directoryUrl: z.string().url('must be the ACME directory URL'),
      /** CA bundle of the ACME server's own HTTPS (a private or test CA; tests: pebble's). */
      caFile: z.string().min(1).optional(),
      httpPort: port.default(80),
      email: z.string().email().optional(),
      /** The operator's own name for this server (`enroll --domain`), preferred to any other. */
      domain: z.string().max(253).optional(),
    })
    .optional(),
  /** The node's name under the platform's domain (Enroll/ReportResponse.host_name). */
  hostName: z.string().max(253).optional(),
  /** The certificate manager's last order and the next one (certificates/). */
  certificateState: z
    .object({
      /** Failed orders in a row (0 after a success). */
      failures: z.number().int().min(0),
      lastAttemptAt: z.string(),
      lastError: z.string().max(300).nullable(),
      /** When the manager orders next (a renewal or a retry), ISO 8601. */
      nextAttemptAt: z.string().nullable(),
    })
    .optional(),
  /**
   * The web server behind the TLS inbound's VLESS fallback, which answers active probers
   * (proxy-core/decoy.ts): the operator's own plain-HTTP site (`scn-agent decoy --upstream`) or,
   * without one, the agent's decoy site on the loopback port kept here across restarts.
   */
  decoy: z
    .object({
      upstream: z
        .string()
        .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d{1,5}$/, 'must be host:port')
        .optional(),
      port: port.optional(),
    })
    .optional(),
  /** The last inbound plan the daemon received, and what became of it (refused: why). */
  lastPlan: z
    .object({
      revision: uint64,
      at: z.string(),
      outcome: z.enum(['applied', 'unchanged', 'refused']),
      reason: z.string().nullable(),
    })
    .optional(),
  reportIntervalMs: z.number().int().min(1000).max(3_600_000),
  /** The last client set applied to the core, so a restart starts with it before the push arrives. */
  appliedClientSetVersion: uint64.default('0'),
  allowedClients: z.array(z.string()).default([]),
  lastReport: z
    .object({
      /** When the attempt finished (ISO 8601, local clock). */
      at: z.string(),
      accepted: z.boolean(),
      /** The control plane's answer; on a failed attempt, the last known values. */
      reliability: z.number().nullable(),
      available: z.boolean().nullable(),
      error: z.string().nullable(),
      activeClients: z.number().int().min(0).optional(),
      proxyCoreState: z.string().optional(),
      pingMs: z.number().optional(),
      /** The control plane endpoint (a replica's address) that answered. */
      endpoint: z.string().optional(),
      /** Local clock minus the control plane's (server_time_ms, corrected by half the RTT). */
      clockSkewMs: z.number().optional(),
    })
    .optional(),
  /** The daemon's last audit of the core's users, whatever it found. */
  lastCoreAudit: coreAuditSummary.optional(),
  /** The last audit that found (and undid) something: foreign users, lost users, a reset. */
  lastCoreAuditFinding: coreAuditSummary.optional(),
});

export type AgentConfig = z.infer<typeof agentConfigSchema>;
export type CoreAuditSummary = z.infer<typeof coreAuditSummary>;
export type AgentConfigInput = z.input<typeof agentConfigSchema>;
export type AgentInbound = AgentConfig['inbound'];
export type LastReportSummary = NonNullable<AgentConfig['lastReport']>;

function configError(file: string, message: string, hint?: string, cause?: unknown): AgentError {
  return new AgentError(`config ${file}: ${message}`, {
    exitCode: EXIT_CODES.config,
    hint,
    cause,
  });
}

/** Reads and validates the config; every failure names the file (and the field). Exit code 78. */
export async function readAgentConfig(file: string): Promise<AgentConfig> {
  let mode: number;
  try {
    mode = (await stat(file)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw configError(
        file,
        'not found',
        'enroll this node first: scn-agent enroll --server HOST:PORT --token TOKEN',
        error,
      );
    }
    throw configError(file, `cannot be read (${(error as Error).message})`, undefined, error);
  }
  if ((mode & 0o077) !== 0) {
    throw configError(
      file,
      `is readable by group or others (mode ${(mode & 0o777).toString(8)}); it holds the node secret`,
      `chmod 600 ${file}`,
    );
  }
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    throw configError(file, `cannot be read (${(error as Error).message})`, undefined, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw configError(file, `is not valid JSON (${(error as Error).message})`, undefined, error);
  }
  const parsed = agentConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '(root)';
    throw configError(
      file,
      `field "${field}": ${issue?.message ?? 'invalid'}`,
      're-enroll with scn-agent enroll --force, or fix the field',
    );
  }
  return parsed.data;
}

/**
 * Writes the config atomically (temp file in the same folder, fsync, rename), mode 0600; answers
 * the text written.
 */
export async function writeAgentConfig(file: string, config: AgentConfigInput): Promise<string> {
  const text = configText(config);
  await writePrivateFile(file, text);
  return text;
}

/** Writes `text` atomically (temp file in the same folder, fsync, rename), mode 0600. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temp, 0o600); // the umask cannot widen it, but be explicit about the promise
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** The file's text for `config`, exactly as writeAgentConfig writes it (validated). */
function configText(config: AgentConfigInput): string {
  return `${JSON.stringify(agentConfigSchema.parse(config), null, 2)}\n`;
}

/**
 * The daemon's copy of the config: the reporter and the client-set watcher both update it, so
 * writes are serialized and each one writes the latest whole state.
 *
 * The operator's commands (`scn-agent decoy`, …) edit the same file while the daemon runs, and
 * ask for a restart to apply the edit. So that the daemon's next write does not undo such an
 * edit, each write first compares the file with the text this store last wrote (or loaded):
 * when someone else changed it, the file's version becomes the store's and the change is applied
 * to it (changes are functions of the config, so applying one again is safe).
 */
export class AgentConfigStore {
  private writing: Promise<void> = Promise.resolve();
  /** The file's text as this store last wrote (or, at the start, loaded) it. */
  private written: string;

  constructor(
    readonly file: string,
    private config: AgentConfig,
  ) {
    this.written = configText(config);
  }

  get current(): AgentConfig {
    return this.config;
  }

  update(change: (config: AgentConfig) => AgentConfig): Promise<void> {
    this.config = change(this.config);
    // A failed write must not block the later ones: each writes the whole latest state.
    const next = this.writing
      .catch(() => undefined)
      .then(async () => {
        const onDisk = await this.editedElsewhere();
        if (onDisk) this.config = change(onDisk);
        this.written = await writeAgentConfig(this.file, this.config);
      });
    this.writing = next;
    return next;
  }

  /** The file's config when someone else wrote it since this store did, else null. */
  private async editedElsewhere(): Promise<AgentConfig | null> {
    const raw = await readFile(this.file, 'utf8').catch(() => null);
    // Gone or unreadable: the write puts it back. Unchanged: nothing to take.
    if (raw === null || raw === this.written) return null;
    try {
      const parsed = agentConfigSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null; // half-written or broken by hand: ours replaces it
    }
  }
}
