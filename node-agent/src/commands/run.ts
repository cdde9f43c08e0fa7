import { access, constants } from 'node:fs/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import {
  type AgentConfig,
  AgentConfigStore,
  readAgentConfig,
  resolveConfigPath,
} from '../config/agent-config';
import { CertificateManager } from '../certificates/certificate-manager';
import {
  type ClientSetWatch,
  ControlPlaneClient,
  PreferredEndpointReturn,
} from '../grpc/control-plane-client';
import { ClientSetApplier } from '../proxy-core/client-set-applier';
import { CoreAuditScheduler } from '../proxy-core/core-audit';
import { parseTestDestinations } from '../proxy-core/destination-policy';
import { decoyFallbackDest, startConfiguredDecoy } from '../proxy-core/decoy';
import { coreInboundSettings, InboundPlanner } from '../proxy-core/inbound-plan';
import { tlsDirFor } from '../proxy-core/inbound-setup';
import type { ProxyCore, ProxyCoreOptions } from '../proxy-core/proxy-core';
import { Reporter } from '../reporter/reporter';
import { type HardwareSummary, readHardware } from '../system/hardware';
import { AGENT_VERSION, type CommandIo, parseFlags, processIo } from './context';

/** The environment variable of `--allow-test-destinations` (the flag wins). */
export const ALLOW_TEST_DESTINATIONS_ENV = 'SCN_AGENT_ALLOW_TEST_DESTINATIONS';

export const runFlagsSchema = z.object({
  config: z.string().optional(),
  /** Run without a proxy core (demo nodes): reported as ABSENT. */
  core: z.boolean().default(true),
  /**
   * Documentation-range CIDRs a tunnel may reach although every special-purpose range is refused
   * (docs/security.md "Tunnel isolation"): lets a test machine prove a tunnel end to end against
   * a namespaced test host. Nothing else can be opened; loopback, private, the node's own
   * addresses and the core's API stay blocked (core-config.ts matches those first).
   */
  allowTestDestinations: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return [];
      try {
        return parseTestDestinations(text);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `${(error as Error).message} (also read from ${ALLOW_TEST_DESTINATIONS_ENV})`,
        });
        return z.NEVER;
      }
    }),
});
export type RunFlags = z.input<typeof runFlagsSchema>;

/** The proxy core's options from the agent's config (and `run`'s test destinations). */
export function proxyCoreOptions(
  config: AgentConfig,
  testDestinations: readonly string[] = [],
): ProxyCoreOptions {
  return {
    kind: config.core.kind,
    binary: config.core.binary,
    workDir: config.core.workDir,
    apiPort: config.core.apiPort,
    inbound: coreInboundSettings(config.inbound, config.publicPort),
    fallbackDest: decoyFallbackDest(config),
    ...(testDestinations.length > 0 ? { allowedDestinationCidrs: [...testDestinations] } : {}),
  };
}

/** The one place that builds the real core; loaded lazily so status/doctor never load it. */
export async function createProxyCore(
  config: AgentConfig,
  testDestinations: readonly string[] = [],
): Promise<ProxyCore> {
  const { XrayCore } = await import('./../proxy-core/xray-core');
  return new XrayCore(proxyCoreOptions(config, testDestinations));
}

export interface DaemonDeps {
  io?: CommandIo;
  env?: NodeJS.ProcessEnv;
  /**
   * null: no core. Default: the real core when its binary exists, else none. Gets the test
   * destinations `run` was given (normalised documentation-range CIDRs, usually none).
   */
  coreFactory?: (
    config: AgentConfig,
    testDestinations: readonly string[],
  ) => Promise<ProxyCore | null>;
  hardware?: () => Promise<HardwareSummary>;
  /** Resolves when the daemon should stop. Default: SIGINT or SIGTERM. */
  stopSignal?: Promise<unknown>;
}

/**
 * SIGINT or SIGTERM, once. The handlers stay until `release()`, after the daemon stopped: a
 * second signal while it stops (npm start's supervisor and a terminal may both send one) is
 * ignored instead of ending the process with its default action, which would leave the proxy
 * core running without its agent, its ports taken.
 */
function watchSignals(io: CommandIo): { stopped: Promise<NodeJS.Signals>; release: () => void } {
  let received = false;
  let handler: (signal: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    handler = (signal) => {
      if (received) {
        io.err(`scn-agent: ${signal} received again; still stopping the proxy core\n`);
        return;
      }
      received = true;
      resolve(signal);
    };
  });
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stopped,
    release: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

async function defaultCoreFactory(
  config: AgentConfig,
  testDestinations: readonly string[],
  io: CommandIo,
): Promise<ProxyCore | null> {
  const present = await access(config.core.binary, constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!present) {
    io.err(
      `scn-agent: no proxy core at ${config.core.binary}: running without one (reported as absent)\n`,
    );
    return null;
  }
  return createProxyCore(config, testDestinations);
}

/**
 * The running pieces of the daemon, separate from signal handling so tests can drive them: the
 * core starts with the last applied set (users added through the API die with the core), the
 * push stream reconciles, the reporter reports. Stopping the control plane side never stops the core.
 */
export class AgentDaemon {
  private watch: ClientSetWatch | null = null;
  private client: ControlPlaneClient | null = null;
  /** Moves the agent back to the replica its node id picks once that answers again. */
  private readonly preferredReturn: PreferredEndpointReturn;
  readonly reporter: Reporter;
  /** Applies pushed sets to the core, retrying a failed one until it takes or is superseded. */
  readonly applier: ClientSetApplier;
  /** Applies the control plane's inbound plans (port, transport) and reports at once. */
  readonly planner: InboundPlanner;
  /** Audits the core's real users against the desired set (null without a core). */
  readonly audits: CoreAuditScheduler | null;
  /** Keeps a TLS inbound on a publicly trusted certificate (certificates/). */
  readonly certificates: CertificateManager;

  constructor(
    readonly store: AgentConfigStore,
    readonly core: ProxyCore | null,
    private readonly io: CommandIo,
    hardware: () => Promise<HardwareSummary>,
    auditIntervalMs?: number,
  ) {
    const config = store.current;
    this.client = new ControlPlaneClient(
      {
        target: config.controlPlane,
        tls: config.tls,
        caFile: config.caFile,
        insecure: config.insecure,
      },
      config,
    );
    this.certificates = new CertificateManager({
      store,
      core,
      tlsDir: tlsDirFor(store.file),
      onChange: () => this.reporter.reportNow(),
      log: (message) => io.err(`scn-agent: ${message}\n`),
    });
    this.reporter = new Reporter({
      client: this.client,
      store,
      core,
      agentVersion: AGENT_VERSION,
      hardware,
      log: (message) => io.err(`scn-agent: ${message}\n`),
      onHostName: () => this.certificates.wake(),
    });
    this.planner = new InboundPlanner({
      core,
      store,
      onChange: () => {
        this.reporter.reportNow();
        this.certificates.wake();
      },
      log: (message) => io.err(`scn-agent: ${message}\n`),
    });
    // Failover (docs/operators.md "Several control plane replicas"): a new replica learns of the
    // node at once, and any answer from the control plane ends every backoff.
    this.client.rotation.onMove((from, to, reason) => {
      io.err(
        reason === 'returned'
          ? `scn-agent: control plane ${to.target} answers again; moving back from ${from.target}\n`
          : `scn-agent: control plane ${from.target} failed; moving to ${to.target}\n`,
      );
      this.reporter.endpointChanged();
    });
    this.client.rotation.onContact(() => this.reporter.contactSucceeded());
    const client = this.client;
    this.preferredReturn = new PreferredEndpointReturn(client.rotation, {
      check: (endpoint) => client.answers(endpoint),
      intervalMs: config.preferredEndpointCheckMs,
    });
    this.applier = new ClientSetApplier({
      core,
      store,
      planner: this.planner,
      log: (message) => io.err(`scn-agent: ${message}\n`),
    });
    this.audits = core
      ? new CoreAuditScheduler({
          core,
          store,
          intervalMs: auditIntervalMs,
          log: (message) => io.err(`scn-agent: ${message}\n`),
        })
      : null;
  }

  async start(options: { report?: boolean; certificates?: boolean } = {}): Promise<void> {
    const config = this.store.current;
    if (this.core) {
      try {
        await this.core.start(config.allowedClients);
      } catch (error) {
        // The core supervises itself; its state goes into the next report.
        this.io.err(`scn-agent: proxy core did not start: ${(error as Error).message}\n`);
      }
    }
    this.watch = this.client!.watchClients(
      config.appliedClientSetVersion,
      (set) => this.applier.offer(set),
      {
        onError: (error, retryInMs) =>
          this.io.err(
            `scn-agent: client stream: ${error.message}; reconnecting in ${retryInMs} ms\n`,
          ),
      },
    );
    if (options.report !== false) this.reporter.start();
    this.preferredReturn.start();
    this.audits?.start();
    if (options.certificates !== false) this.certificates.start();
  }

  async stop(): Promise<void> {
    this.preferredReturn.stop();
    this.watch?.stop();
    await this.certificates.stop();
    await this.audits?.stop();
    await this.applier.stop();
    await this.reporter.stop();
    this.client?.close();
    this.client = null;
    if (this.core) await this.core.stop();
  }
}

/** `scn-agent run`: the daemon, until SIGINT/SIGTERM. */
export async function run(rawFlags: RunFlags, deps: DaemonDeps = {}): Promise<void> {
  const io = deps.io ?? processIo;
  const env = deps.env ?? process.env;
  const flags = parseFlags(runFlagsSchema, {
    ...rawFlags,
    allowTestDestinations: rawFlags.allowTestDestinations ?? env[ALLOW_TEST_DESTINATIONS_ENV],
  });
  const configPath = resolveConfigPath(flags.config, deps.env);
  const store = new AgentConfigStore(configPath, await readAgentConfig(configPath));
  const testDestinations = flags.allowTestDestinations;
  // Before the core: its config names the decoy's port (docs/security.md "Active probing").
  const decoy = flags.core ? await startConfiguredDecoy(store) : null;
  const core = flags.core
    ? await (deps.coreFactory ?? ((c, t) => defaultCoreFactory(c, t, io)))(
        store.current,
        testDestinations,
      )
    : null;
  if (testDestinations.length > 0) {
    io.err(
      `scn-agent: TESTING: tunnels may reach ${testDestinations.join(', ')} ` +
        `(--allow-test-destinations; documentation ranges only)${core ? '' : ', but no proxy core runs'}\n`,
    );
  }
  const daemon = new AgentDaemon(store, core, io, deps.hardware ?? readHardware);
  const signals = deps.stopSignal ? null : watchSignals(io);
  try {
    await daemon.start();
    io.err(
      `scn-agent: node ${store.current.nodeId} running; reporting to ${store.current.controlPlane}\n`,
    );
    const signal = await (deps.stopSignal ?? signals!.stopped);
    io.err(`scn-agent: ${typeof signal === 'string' ? signal : 'stop'} received, stopping\n`);
    await daemon.stop();
  } finally {
    await decoy?.close();
    signals?.release();
  }
}

export function registerRun(program: Command, io: CommandIo = processIo): void {
  program
    .command('run')
    .description('the daemon: runs the proxy core, applies client sets, reports every interval')
    .option(
      '--config <path>',
      'config file (default $SCN_AGENT_CONFIG or /etc/scn-agent/config.json)',
    )
    .option('--no-core', 'run without a proxy core (demo nodes)')
    .option(
      '--allow-test-destinations <cidrs>',
      `testing only: comma-separated CIDRs inside the documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) that tunnels may reach (default $${ALLOW_TEST_DESTINATIONS_ENV}); loopback, private and the node's own addresses stay refused`,
    )
    .action(async (flags: RunFlags) => {
      await run(flags, { io });
    });
}
