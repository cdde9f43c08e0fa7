import type { AgentConfig } from '../config/agent-config';
import { decoyFallbackDest, probeDecoy, usesFallback } from '../proxy-core/decoy';
import { realityServerName } from '../proxy-core/inbound-setup';
import {
  checkRealityTarget,
  describeTargetReport,
  type RealityTargetCheckOptions,
} from '../proxy-core/reality-target-check';
import { REALITY_TARGET_CANDIDATES } from '../proxy-core/reality-targets';
import type { DoctorCheck } from './doctor';

/**
 * What `doctor` says about what an active prober meets (docs/security.md "Active probing"): the
 * REALITY target the node relays strangers to, or the web server behind the TLS inbound's
 * fallback.
 */

export interface ProbingCheckOptions {
  /** Tests: where the REALITY target is reached and which certificates are trusted. */
  realityTarget?: Pick<RealityTargetCheckOptions, 'connectTo' | 'ca' | 'timeoutMs'>;
  decoyTimeoutMs?: number;
}

const OTHER_TARGETS = REALITY_TARGET_CANDIDATES.map((c) => c.dest).join(', ');

/** The configured REALITY target, checked from the node (reality-target-check.ts). */
export async function checkRealityTargetLine(
  config: AgentConfig,
  options: ProbingCheckOptions = {},
): Promise<DoctorCheck | null> {
  const inbound = config.inbound;
  if (inbound.security !== 'reality' || !inbound.realityDest) return null;
  const report = await checkRealityTarget({
    dest: inbound.realityDest,
    serverName: inbound.sni ?? realityServerName(inbound.realityDest),
    ...options.realityTarget,
  });
  const name = 'REALITY target';
  if (report.problems.length === 0) {
    return {
      name,
      result: 'PASS',
      detail: `${report.target}: ${describeTargetReport(report)}, no CDN marker, name on no block list`,
    };
  }
  return {
    name,
    result: 'FAIL',
    detail: `${report.target}: ${report.problems.map((p) => p.detail).join('; ')}`,
    hint:
      'pick a target with TLS 1.3, h2, X25519, a valid certificate, no CDN and no blocked name, ' +
      `reachable from this VPS: scn-agent decoy --reality-dest host:port (checked ones: ${OTHER_TARGETS}), ` +
      'then systemctl restart scn-agent',
  };
}

/** Whether the TLS inbound's fallback answers like a web server (proxy-core/decoy.ts). */
export async function checkDecoyLine(
  config: AgentConfig,
  apiUp: boolean,
  options: ProbingCheckOptions = {},
): Promise<DoctorCheck | null> {
  const name = 'active-probing decoy';
  if (!usesFallback(config)) return null;
  const dest = decoyFallbackDest(config);
  const builtin = !config.decoy?.upstream;
  if (!dest && !apiUp) {
    return { name, result: 'SKIP', detail: 'the agent has not started its decoy site yet' };
  }
  if (!dest) {
    return {
      name,
      result: 'FAIL',
      detail: 'no decoy site yet: probers get the connection closed',
      hint: 'start the agent (systemctl restart scn-agent): it starts its decoy site and the core falls back to it',
    };
  }
  const probe = await probeDecoy(dest, config.publicHost, options.decoyTimeoutMs);
  if (probe.ok) {
    return {
      name,
      result: 'PASS',
      detail: `probers get ${builtin ? "the agent's decoy site" : "the operator's site"} at ${dest}: ${probe.detail}`,
    };
  }
  if (builtin && !apiUp) {
    return {
      name,
      result: 'SKIP',
      detail: `the agent is not running, so its decoy site at ${dest} is not either (${probe.detail})`,
    };
  }
  return {
    name,
    result: 'FAIL',
    detail: `the fallback ${dest} does not answer like a web server: ${probe.detail}; probers get the connection closed`,
    hint: builtin
      ? 'restart the agent (systemctl restart scn-agent), then see journalctl -u scn-agent'
      : 'start your site there, or go back to the built-in decoy: scn-agent decoy --builtin',
  };
}
