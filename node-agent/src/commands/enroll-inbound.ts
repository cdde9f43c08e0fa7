import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { coreDefaultSecurity, inboundUnsupportedReason, type ProxyCoreKind } from '@scn/proto';
import { AgentError, EXIT_CODES } from '../errors';
import type { InboundPlan } from '../proxy-core/inbound-plan';
import { type InboundNetwork, type InboundSecurity, NETWORKS } from '../proxy-core/inbound-setup';

/** The inbound flags of `scn-agent enroll` (see enrollFlagsSchema). */
export interface InboundFlags {
  core: ProxyCoreKind;
  publicPort?: number;
  transport?: InboundNetwork;
  security?: InboundSecurity;
  realityDest?: string;
  realitySni?: string;
  certificateFile?: string;
  keyFile?: string;
}

export interface InboundChoice {
  security: InboundSecurity;
  network: InboundNetwork;
}

function usage(message: string, hint?: string): AgentError {
  return new AgentError(message, { exitCode: EXIT_CODES.usage, hint });
}

/** The operator's choice, checked before the token is spent. */
export function checkInboundFlags(flags: InboundFlags): InboundChoice {
  const security = flags.security ?? coreDefaultSecurity(flags.core);
  const network = flags.transport ?? 'tcp';
  const unsupported = inboundUnsupportedReason(flags.core, security, network);
  if (unsupported) {
    throw usage(`--security ${security} --transport ${network}: ${unsupported}`);
  }
  if ((flags.certificateFile === undefined) !== (flags.keyFile === undefined)) {
    throw usage('--certificate-file and --key-file go together');
  }
  if (flags.certificateFile && security !== 'tls') {
    throw usage(`--certificate-file is for --security tls (this node serves ${security})`);
  }
  if ((flags.realityDest || flags.realitySni) && security !== 'reality') {
    throw usage(`--reality-dest and --reality-sni are for --security reality (not ${security})`);
  }
  return { security, network };
}

/** The operator's certificate and key parse and belong together (no token spent otherwise). */
export async function checkOperatorCertificate(flags: InboundFlags): Promise<void> {
  if (!flags.certificateFile || !flags.keyFile) return;
  try {
    const certificate = new X509Certificate(await readFile(flags.certificateFile));
    const key = createPrivateKey(await readFile(flags.keyFile));
    if (!certificate.checkPrivateKey(key))
      throw new Error('the key does not match the certificate');
    if (Date.parse(certificate.validTo) <= Date.now()) {
      throw new Error(`the certificate expired on ${certificate.validTo}`);
    }
  } catch (error) {
    throw usage(
      `--certificate-file/--key-file: ${(error as Error).message}`,
      'give the PEM certificate (leaf first) and its unencrypted PEM private key',
    );
  }
}

export interface EnrollPlan extends InboundChoice {
  port: number;
  /** The plan's revision the inbound serves ('0': no plan, or it was refused). */
  revision: string;
  /** Why the control plane's plan was not taken (the operator's choice runs instead). */
  refused: string | null;
  refusedRevision: string;
}

/**
 * What the node serves after enrollment: the control plane's plan where it says something and
 * the core can serve it (port, security, network), the operator's flags otherwise.
 */
export function resolveEnrollPlan(
  kind: ProxyCoreKind,
  choice: InboundChoice,
  plan: InboundPlan | null,
  flags: Pick<InboundFlags, 'publicPort'>,
): EnrollPlan {
  const fallbackPort = flags.publicPort ?? 443;
  const none = {
    ...choice,
    port: fallbackPort,
    revision: '0',
    refused: null,
    refusedRevision: '0',
  };
  if (!plan) return none;
  const revision = String(plan.revision ?? '0');
  const refuse = (reason: string): EnrollPlan => ({
    ...none,
    refused: `the control plane's inbound plan r${revision} was not taken (${reason}); serving the flags' choice`,
    refusedRevision: /^\d{1,20}$/.test(revision) ? revision : '0',
  });
  const port = Number(plan.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return refuse(`port ${plan.port}`);
  const security = (plan.security || choice.security) as InboundSecurity;
  const network = (plan.network || choice.network) as InboundNetwork;
  if (security !== 'tls' && security !== 'reality' && security !== choice.security) {
    return refuse(`unknown security "${plan.security}"`);
  }
  if (!NETWORKS.includes(network)) return refuse(`unknown network "${plan.network}"`);
  const unsupported = inboundUnsupportedReason(kind, security, network);
  if (unsupported) return refuse(unsupported);
  return {
    security,
    network,
    port: port === 0 ? fallbackPort : port,
    revision: /^\d{1,20}$/.test(revision) ? revision : '0',
    refused: null,
    refusedRevision: '0',
  };
}

/**
 * The control plane's plan decides the transport (the operator changes it in Node
 * Configuration): says so when it differs from an explicit --security or --transport.
 */
export function overriddenFlags(
  flags: Pick<InboundFlags, 'security' | 'transport'>,
  plan: EnrollPlan,
): string | null {
  if (plan.revision === '0') return null;
  const ignored = [
    ...(flags.security && flags.security !== plan.security ? [`--security ${flags.security}`] : []),
    ...(flags.transport && flags.transport !== plan.network
      ? [`--transport ${flags.transport}`]
      : []),
  ];
  if (ignored.length === 0) return null;
  return (
    `the control plane's inbound plan r${plan.revision} sets ${plan.security}/${plan.network}, so ` +
    `${ignored.join(' and ')} ${ignored.length > 1 ? 'are' : 'is'} not used: change the transport ` +
    'in Node Configuration'
  );
}
