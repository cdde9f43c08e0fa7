import type { AgentConfig } from '../config/agent-config';
import { acmeSettings } from './acme-settings';
import { certificateSource } from './certificate-plan';

/**
 * What `status` and `doctor` say about the node's certificate: who issued it,
 * what the agent does next, and, on the self-signed fallback, why and how to fix it.
 */
export interface CertificateStatus {
  source: 'acme' | 'operator' | 'self_signed';
  acme: { enabled: boolean; directoryUrl: string; httpPort: number; domain: string | null };
  /** The control plane's name for the node, when it gave one. */
  hostName: string | null;
  /** Why the self-signed certificate serves (the last order's error). */
  problem: string | null;
  failures: number;
  lastAttemptAt: string | null;
  /** The next order: a renewal or a retry. */
  nextAttemptAt: string | null;
}

/** null: no TLS inbound (REALITY or plaintext). */
export function certificateStatus(config: AgentConfig): CertificateStatus | null {
  if (config.inbound.security !== 'tls') return null;
  const acme = acmeSettings(config);
  const state = config.certificateState;
  return {
    source: certificateSource(config.inbound),
    acme: {
      enabled: acme.enabled,
      directoryUrl: acme.directoryUrl,
      httpPort: acme.httpPort,
      domain: acme.domain ?? null,
    },
    hostName: config.hostName ?? null,
    problem: config.inbound.certificateProblem ?? state?.lastError ?? null,
    failures: state?.failures ?? 0,
    lastAttemptAt: state?.lastAttemptAt ?? null,
    nextAttemptAt: state?.nextAttemptAt ?? null,
  };
}

export function describeCertificateStatus(status: CertificateStatus): string {
  switch (status.source) {
    case 'acme':
      return (
        `publicly trusted (ACME, ${status.acme.directoryUrl})` +
        (status.nextAttemptAt ? `; renews from ${status.nextAttemptAt}` : '') +
        (status.problem ? `; last renewal failed: ${status.problem}` : '')
      );
    case 'operator':
      return "the operator's own certificate (renew it yourself before it expires)";
    case 'self_signed':
      if (!status.acme.enabled) {
        return 'SELF-SIGNED (ACME is off): only apps that pin it connect';
      }
      return (
        `SELF-SIGNED fallback: only apps that pin it connect` +
        (status.problem ? `; the CA refused: ${status.problem}` : '; no order tried yet') +
        (status.nextAttemptAt ? `; next try ${status.nextAttemptAt}` : '')
      );
  }
}

/** The doctor's line: a self-signed fallback fails, with what to fix. */
export function certificateCheck(config: AgentConfig): {
  name: string;
  result: 'PASS' | 'FAIL' | 'SKIP';
  detail: string;
  hint?: string;
} | null {
  const status = certificateStatus(config);
  if (!status) return null;
  const detail = describeCertificateStatus(status);
  if (status.source !== 'self_signed') return { name: 'certificate', result: 'PASS', detail };
  const name = status.acme.domain ?? status.hostName;
  return {
    name: 'certificate',
    result: 'FAIL',
    detail,
    hint: !status.acme.enabled
      ? 'turn ACME on: scn-agent certificate --acme letsencrypt, then restart the agent'
      : `let the CA reach this server on TCP port ${status.acme.httpPort} (firewall)` +
        (name ? ` and make ${name} resolve to ${config.publicHost}` : '') +
        '; or give your own name: scn-agent certificate --domain <name>',
  };
}
