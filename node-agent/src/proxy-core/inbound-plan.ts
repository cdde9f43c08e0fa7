import {
  type ClientSet__Output,
  coreDefaultSecurity,
  inboundUnsupportedReason,
  type ProxyCoreKind,
} from '@scn/proto';
import type { AgentConfig, AgentConfigStore, AgentInbound } from '../config/agent-config';
import {
  type InboundNetwork,
  type InboundSecurity,
  NETWORKS,
  tlsDirFor,
  withNetwork,
  withSecurityMaterial,
} from './inbound-setup';
import type { ProxyCore, VlessInboundSettings } from './proxy-core';

/**
 * The control plane's inbound plan (port, security, network): applied when
 * its revision is newer than the one the node serves, refused (the current inbound kept) when
 * the core cannot serve it. Whatever happens, the next report, sent at once, says what runs.
 */

export type InboundPlan = NonNullable<ClientSet__Output['inboundPlan']>;

export type PlanDecision =
  | { outcome: 'applied' | 'unchanged'; revision: string; inbound: AgentInbound; port: number }
  | { outcome: 'refused'; revision: string; reason: string };

const SECURITIES: readonly InboundSecurity[] = ['tls', 'reality'];

/** The revision of a plan as a bigint, or null when it is not a decimal uint64. */
function revisionOf(plan: InboundPlan): bigint | null {
  const text = String(plan.revision ?? '');
  return /^\d{1,20}$/.test(text) ? BigInt(text) : null;
}

/** Whether `plan` is newer than the inbound served and than the last plan seen (refused too). */
export function isNewPlan(config: AgentConfig, plan: InboundPlan | null | undefined): boolean {
  if (!plan) return false;
  const revision = revisionOf(plan);
  if (revision === null || revision === 0n) return false;
  const seen = [config.inbound.planRevision, config.lastPlan?.revision ?? '0'].map(BigInt);
  return seen.every((known) => revision > known);
}

/**
 * What the node would serve under `plan`: the same keys and certificate, new material only for
 * a security it never had, a new ws path or gRPC service name only when the network changes.
 * Never throws on bad plan values: they are a refusal.
 */
export async function decidePlan(
  config: AgentConfig,
  plan: InboundPlan,
  tlsDir: string,
): Promise<PlanDecision> {
  const revision = String(plan.revision);
  const kind: ProxyCoreKind = config.core.kind;
  const refuse = (reason: string): PlanDecision => ({ outcome: 'refused', revision, reason });
  const port = Number(plan.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return refuse(`port ${String(plan.port)} is not 0-65535`);
  }
  const security = (plan.security || coreDefaultSecurity(kind)) as InboundSecurity;
  if (!SECURITIES.includes(security)) return refuse(`unknown security "${plan.security}"`);
  const network = (plan.network || 'tcp') as InboundNetwork;
  if (!NETWORKS.includes(network)) return refuse(`unknown network "${plan.network}"`);
  const unsupported = inboundUnsupportedReason(kind, security, network);
  if (unsupported) return refuse(unsupported);

  const current = config.inbound;
  const nextPort = port === 0 ? config.publicPort : port;
  if (
    current.security === security &&
    current.network === network &&
    nextPort === config.publicPort
  ) {
    return {
      outcome: 'unchanged',
      revision,
      inbound: { ...current, planRevision: revision },
      port: nextPort,
    };
  }
  let inbound = current;
  try {
    if (security !== current.security) {
      inbound = await withSecurityMaterial(current, security, {
        kind,
        publicHost: config.publicHost,
        tlsDir,
      });
    }
  } catch (error) {
    return refuse(`could not make its ${security} material: ${(error as Error).message}`);
  }
  inbound = withNetwork(kind, inbound, network);
  return {
    outcome: 'applied',
    revision,
    inbound: { ...inbound, planRevision: revision },
    port: nextPort,
  };
}

/** The core's view of the config's inbound. */
export function coreInboundSettings(inbound: AgentInbound, port: number): VlessInboundSettings {
  return {
    port,
    listen: inbound.listen,
    security: inbound.security,
    network: inbound.network,
    sni: inbound.sni,
    fp: inbound.fp,
    pbk: inbound.pbk,
    sid: inbound.sid,
    flow: inbound.flow,
    path: inbound.path,
    serviceName: inbound.serviceName,
    certificateFile: inbound.certificateFile,
    keyFile: inbound.keyFile,
    realityPrivateKey: inbound.realityPrivateKey,
    realityDest: inbound.realityDest,
  };
}

export interface InboundPlannerOptions {
  core: ProxyCore | null;
  store: AgentConfigStore;
  /** Called after every plan outcome: the daemon reports at once. */
  onChange?: () => void;
  log?: (message: string) => void;
}

/** Applies plans in the daemon: decide, restart the core on the new inbound, persist, report. */
export class InboundPlanner {
  constructor(private readonly options: InboundPlannerOptions) {}

  /** Applies `plan` when it is new; resolves with what became of it (null: not new). */
  async offer(plan: InboundPlan | null | undefined): Promise<PlanDecision | null> {
    const { store, core, log } = this.options;
    const config = store.current;
    if (!plan || !isNewPlan(config, plan)) return null;
    let decision = await decidePlan(config, plan, tlsDirFor(store.file));
    if (decision.outcome === 'applied' && core?.reconfigure) {
      try {
        await core.reconfigure(coreInboundSettings(decision.inbound, decision.port));
      } catch (error) {
        // The core's own last words, on one line: they say why (a port in use, a bad file).
        const words = (error as Error).message.replace(/\s+/g, ' ').trim().slice(-400);
        const reason = `the core did not start with it: ${words}`;
        decision = { outcome: 'refused', revision: decision.revision, reason };
        // Back to what ran before, so the node keeps serving its current clients.
        await core
          .reconfigure(coreInboundSettings(config.inbound, config.publicPort))
          .catch((restore: unknown) =>
            log?.(`restoring the previous inbound failed: ${(restore as Error).message}`),
          );
      }
    }
    const at = new Date().toISOString();
    const settled = decision;
    await store.update((current) =>
      settled.outcome === 'refused'
        ? {
            ...current,
            lastPlan: {
              revision: settled.revision,
              at,
              outcome: 'refused',
              reason: settled.reason,
            },
          }
        : {
            ...current,
            inbound: settled.inbound,
            publicPort: settled.port,
            lastPlan: { revision: settled.revision, at, outcome: settled.outcome, reason: null },
          },
    );
    if (settled.outcome === 'refused') {
      log?.(
        `refused inbound plan r${settled.revision}: ${settled.reason}; still serving ` +
          `${describeInbound(store.current.inbound, store.current.publicPort)}`,
      );
    } else {
      log?.(
        `inbound plan r${settled.revision} ${settled.outcome}: serving ` +
          describeInbound(settled.inbound, settled.port),
      );
    }
    this.options.onChange?.();
    return settled;
  }
}

/** `reality/tcp on port 443` */
export function describeInbound(inbound: AgentInbound, port: number): string {
  return `${inbound.security}/${inbound.network} on port ${port}`;
}
