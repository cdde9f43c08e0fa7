import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { certificateCheck } from '../certificates/certificate-status';
import type { Command } from 'commander';
import { z } from 'zod';
import { type AgentConfig, readAgentConfig, resolveConfigPath } from '../config/agent-config';
import { AgentError } from '../errors';
import { describeAudit, describeFinding } from '../proxy-core/core-audit';
import { canConnect, probeListen } from '../system/net';
import { describeTransport, summarizeTransport, testCoreConfig } from './transport-check';
import { checkDecoyLine, checkRealityTargetLine } from './doctor-probing';
import { type CommandIo, parseFlags, processIo } from './context';

const execFileAsync = promisify(execFile);

/** Clock skew beyond this breaks report freshness windows and TLS validity checks. */
export const MAX_CLOCK_SKEW_MS = 30_000;

export interface DoctorCheck {
  name: string;
  result: 'PASS' | 'FAIL' | 'SKIP';
  detail: string;
  hint?: string;
}

export const doctorFlagsSchema = z.object({
  config: z.string().optional(),
  json: z.boolean().default(false),
});
export type DoctorFlags = z.input<typeof doctorFlagsSchema>;

async function coreVersion(binary: string): Promise<string> {
  // Xray and v2ray 5 take `version`; v2ray 4.x takes `-version`.
  for (const args of [['version'], ['-version']]) {
    try {
      const { stdout } = await execFileAsync(binary, args, { timeout: 5_000 });
      const line = stdout.split('\n').find((l) => l.trim()) ?? '';
      if (/\d+\.\d+/.test(line)) return line.trim();
    } catch {
      // try the other spelling
    }
  }
  throw new Error('neither `version` nor `-version` printed a version');
}

async function checkCore(config: AgentConfig): Promise<DoctorCheck[]> {
  const binary = config.core.binary;
  const install =
    config.core.kind === 'xray'
      ? 'install Xray (see docs/operators.md) or set core.binary in the config'
      : 'apt-get install v2ray, or set core.binary in the config';
  let binaryCheck: DoctorCheck;
  try {
    const info = await stat(binary);
    if (!info.isFile() || (info.mode & 0o111) === 0) throw new Error('not an executable file');
    binaryCheck = {
      name: 'proxy core binary',
      result: 'PASS',
      detail: `${binary}: ${await coreVersion(binary)}`,
    };
  } catch (error) {
    binaryCheck = {
      name: 'proxy core binary',
      result: 'FAIL',
      detail: `${binary}: ${(error as Error).message}`,
      hint: install,
    };
  }
  const apiUp = await canConnect('127.0.0.1', config.core.apiPort, 1_000);
  const apiCheck: DoctorCheck = apiUp
    ? {
        name: 'proxy core API',
        result: 'PASS',
        detail: `answering on 127.0.0.1:${config.core.apiPort}`,
      }
    : {
        name: 'proxy core API',
        result: 'FAIL',
        detail: `nothing listens on 127.0.0.1:${config.core.apiPort}`,
        hint: 'start the agent (systemctl start scn-agent; it starts the core), then see journalctl -u scn-agent',
      };
  const probe = await probeListen(config.publicPort);
  let portCheck: DoctorCheck;
  if (probe === 'free') {
    portCheck = {
      name: 'public port',
      result: 'PASS',
      detail: `${config.publicPort} is free for the core`,
    };
  } else if (probe === 'in-use' && apiUp) {
    portCheck = {
      name: 'public port',
      result: 'PASS',
      detail: `${config.publicPort} is held by the running core`,
    };
  } else if (probe === 'in-use') {
    portCheck = {
      name: 'public port',
      result: 'FAIL',
      detail: `${config.publicPort} is held by another process (the core is not running)`,
      hint: `find it with: ss -ltnp 'sport = :${config.publicPort}'`,
    };
  } else {
    portCheck = {
      name: 'public port',
      result: 'FAIL',
      detail: `no permission to bind ${config.publicPort}`,
      hint: 'run the agent as root or grant CAP_NET_BIND_SERVICE (the systemd unit does)',
    };
  }
  return [
    binaryCheck,
    ...(await checkTransport(config)),
    apiCheck,
    portCheck,
    checkCoreAudit(config, apiUp),
    // What an active prober meets (docs/security.md "Active probing").
    ...[await checkRealityTargetLine(config), await checkDecoyLine(config, apiUp)].filter(
      (check): check is DoctorCheck => check !== null,
    ),
  ];
}

/** Which transport runs, its key or certificate, and whether the core accepts the config. */
async function checkTransport(config: AgentConfig): Promise<DoctorCheck[]> {
  const summary = await summarizeTransport(config);
  const cert = summary.certificate;
  const certProblem =
    cert && 'error' in cert
      ? `cannot read the certificate: ${cert.error}`
      : cert && Date.parse(cert.notAfter) <= Date.now()
        ? `the certificate expired on ${cert.notAfter}`
        : null;
  const refusedPlan = config.lastPlan?.outcome === 'refused' ? config.lastPlan : null;
  const transport: DoctorCheck = {
    name: 'transport',
    result: summary.security === 'none' || certProblem ? 'FAIL' : 'PASS',
    detail:
      describeTransport(summary) +
      (refusedPlan
        ? `; refused plan r${refusedPlan.revision} at ${refusedPlan.at}: ${refusedPlan.reason}`
        : ''),
    hint: certProblem
      ? 're-enroll with a new certificate (scn-agent enroll --force) or renew the operator certificate'
      : summary.security === 'none'
        ? 'plaintext VLESS is for loopback tests: re-enroll without --security none'
        : undefined,
  };
  const verdict = await testCoreConfig(config);
  const coreTest: DoctorCheck =
    verdict.accepted === null
      ? { name: 'core accepts the config', result: 'SKIP', detail: verdict.output }
      : {
          name: 'core accepts the config',
          result: verdict.accepted ? 'PASS' : 'FAIL',
          detail: verdict.accepted
            ? `${verdict.command}: accepted`
            : `${verdict.command}: REFUSED (${verdict.output.replace(/\s+/g, ' ').slice(-300)})`,
          hint: verdict.accepted
            ? undefined
            : "see the core's words above; journalctl -u scn-agent",
        };
  const certificate = certificateCheck(config);
  return [transport, ...(certificate ? [certificate] : []), coreTest];
}

function checkClock(config: AgentConfig): DoctorCheck {
  const skew = config.lastReport?.clockSkewMs;
  if (skew === undefined) {
    return {
      name: 'clock skew',
      result: 'SKIP',
      detail: 'no report answered yet',
      hint: 'run the agent until its first report',
    };
  }
  const ok = Math.abs(skew) <= MAX_CLOCK_SKEW_MS;
  return {
    name: 'clock skew',
    result: ok ? 'PASS' : 'FAIL',
    detail: `${(skew / 1000).toFixed(1)} s vs the control plane (at ${config.lastReport!.at})`,
    hint: ok ? undefined : 'enable time sync: timedatectl set-ntp true',
  };
}

/** A foreign or lost user this recent makes doctor fail: someone used the core's API. */
export const AUDIT_ALERT_MS = 24 * 3_600_000;
/** An audit older than this while the core's API answers means the daemon stopped auditing. */
export const AUDIT_STALE_MS = 5 * 60_000;

/** The daemon's audit of the core's users (proxy-core/core-audit.ts), from the config file. */
export function checkCoreAudit(config: AgentConfig, apiUp: boolean, now = Date.now()): DoctorCheck {
  const name = 'core user audit';
  const last = config.lastCoreAudit;
  if (!last) {
    return {
      name,
      result: 'SKIP',
      detail: 'no audit recorded yet',
      hint: 'run the agent: the daemon audits the core every 30 s',
    };
  }
  const finding = config.lastCoreAuditFinding;
  const tampered =
    finding !== undefined &&
    (finding.foreignRemoved.length > 0 || finding.restored.length > 0) &&
    now - Date.parse(finding.at) < AUDIT_ALERT_MS;
  if (tampered) {
    return {
      name,
      result: 'FAIL',
      detail: `someone changed the core's users through its API: ${describeFinding(finding)}`,
      hint:
        `the agent undid it; find who can reach 127.0.0.1:${config.core.apiPort} ` +
        '(local users and services; see docs/security.md "Tunnel isolation")',
    };
  }
  if (last.error) {
    return {
      name,
      result: 'FAIL',
      detail: `the last audit (${last.at}) failed: ${last.error}`,
      hint: 'see journalctl -u scn-agent',
    };
  }
  if (apiUp && now - Date.parse(last.at) > AUDIT_STALE_MS) {
    return {
      name,
      result: 'FAIL',
      detail: `the last audit ran at ${last.at}, although the core's API answers`,
      hint: 'restart the agent: systemctl restart scn-agent',
    };
  }
  return {
    name,
    result: 'PASS',
    detail: `${describeAudit(last)}; last finding: ${describeFinding(finding ?? null)}`,
  };
}

export async function runDoctorChecks(
  rawFlags: DoctorFlags,
  env?: NodeJS.ProcessEnv,
): Promise<DoctorCheck[]> {
  const flags = parseFlags(doctorFlagsSchema, rawFlags);
  const configPath = resolveConfigPath(flags.config, env);
  let config: AgentConfig;
  try {
    config = await readAgentConfig(configPath);
  } catch (error) {
    // Without a readable config nothing else can be checked.
    return [
      {
        name: 'config file',
        result: 'FAIL',
        detail: (error as Error).message,
        hint: error instanceof AgentError ? error.hint : undefined,
      },
    ];
  }
  return [
    { name: 'config file', result: 'PASS', detail: `${configPath} is valid and mode 0600` },
    ...(await checkCore(config)),
    checkClock(config),
  ];
}

export async function doctor(
  rawFlags: DoctorFlags,
  io: CommandIo = processIo,
  env?: NodeJS.ProcessEnv,
): Promise<DoctorCheck[]> {
  const checks = await runDoctorChecks(rawFlags, env);
  if (rawFlags.json) {
    io.out(`${JSON.stringify(checks, null, 2)}\n`);
  } else {
    for (const check of checks) {
      io.out(`${check.result.padEnd(4)}  ${check.name}: ${check.detail}\n`);
      if (check.result === 'FAIL' && check.hint) io.out(`      fix: ${check.hint}\n`);
    }
  }
  const failed = checks.filter((c) => c.result === 'FAIL').length;
  // Already printed: an empty message keeps the error printer quiet, only the exit code matters.
  if (failed > 0) throw new AgentError('', { exitCode: 1 });
  return checks;
}

export function registerDoctor(program: Command, io: CommandIo = processIo): void {
  program
    .command('doctor')
    .description('check the proxy core, ports, clock and config; exit 1 when a check fails')
    .option('--json', 'machine-readable output')
    .option(
      '--config <path>',
      'config file (default $SCN_AGENT_CONFIG or /etc/scn-agent/config.json)',
    )
    .action(async (flags: DoctorFlags) => {
      await doctor(flags, io);
    });
}
