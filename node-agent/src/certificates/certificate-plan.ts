import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import type { AgentInbound } from '../config/agent-config';

/**
 * What the node's TLS certificate should be for, and when to renew it: pure
 * decisions, so the manager (certificate-manager.ts) only carries them out.
 *
 * A name is preferred to an address: clients send no SNI for an address (a "missing SNI" flow
 * is a flag DPI looks for), and a name's certificate lasts 90 days where an address's lasts
 * about 6. In order: the operator's own domain (`enroll --domain`), the name the control plane
 * publishes for the node under the platform's domain, a host name given as `--public-host`, and
 * only then the public IP address.
 */

export type CertificateIdentity = {
  type: 'dns' | 'ip';
  value: string;
  origin: 'operator_domain' | 'platform_name' | 'public_host_name' | 'public_address';
};

export function desiredIdentity(input: {
  domain?: string;
  hostName?: string;
  publicHost: string;
}): CertificateIdentity {
  if (input.domain)
    return { type: 'dns', value: input.domain.toLowerCase(), origin: 'operator_domain' };
  if (input.hostName) {
    return { type: 'dns', value: input.hostName.toLowerCase(), origin: 'platform_name' };
  }
  if (net.isIP(input.publicHost) === 0) {
    return { type: 'dns', value: input.publicHost.toLowerCase(), origin: 'public_host_name' };
  }
  return { type: 'ip', value: input.publicHost, origin: 'public_address' };
}

export interface CertificateFacts {
  notBefore: number;
  notAfter: number;
  /** The certificate is valid for `identity` (checkHost / checkIP). */
  names: (identity: Pick<CertificateIdentity, 'type' | 'value'>) => boolean;
}

export function certificateFacts(pem: string): CertificateFacts {
  const certificate = new X509Certificate(pem);
  return {
    notBefore: Date.parse(certificate.validFrom),
    notAfter: Date.parse(certificate.validTo),
    names: (identity) =>
      identity.type === 'ip'
        ? certificate.checkIP(identity.value) !== undefined
        : certificate.checkHost(identity.value, { wildcards: true }) !== undefined,
  };
}

/**
 * DPI boxes flag a certificate with fewer than 30 days left where they can see it (nDPI's "TLS
 * certificate about to expire", measured in docs/security.md: 29 days flagged, 31 not).
 */
export const RENEW_BEFORE_FLAGGED_MS = 35 * 86_400_000;

/**
 * When to renew: once two thirds of the lifetime have passed (Let's Encrypt's advice), and at
 * least 35 days before the end, so a 90-day certificate never shows DPI "about to expire"; but
 * never before half its life (a 6-day address certificate renews with 3 days left).
 */
export function renewalTime(facts: Pick<CertificateFacts, 'notBefore' | 'notAfter'>): number {
  const lifetime = Math.max(0, facts.notAfter - facts.notBefore);
  const byLifetime = facts.notAfter - Math.floor(lifetime / 3);
  const halfLife = facts.notBefore + Math.floor(lifetime / 2);
  return Math.max(halfLife, Math.min(byLifetime, facts.notAfter - RENEW_BEFORE_FLAGGED_MS));
}

/**
 * After a failed order: 5 minutes, doubling, at most 6 hours (Let's Encrypt allows 5 failed
 * validations per name per hour; this stays far below it).
 */
export function retryDelayMs(failures: number): number {
  const steps = Math.max(0, failures - 1);
  return Math.min(5 * 60_000 * 2 ** Math.min(steps, 10), 6 * 3_600_000);
}

/** `acme`, `operator` or `self_signed`; configs before ACME certificates say it with `selfSigned`. */
export function certificateSource(inbound: AgentInbound): 'acme' | 'operator' | 'self_signed' {
  return inbound.certificateSource ?? (inbound.selfSigned ? 'self_signed' : 'operator');
}
