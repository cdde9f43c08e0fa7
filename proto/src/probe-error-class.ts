import type { ProbeErrorClass } from './rest/reachability.contract';

/** Where an endpoint test was when it ended. */
export type CheckStage = 'connect' | 'handshake' | 'vless';

const UNREACHABLE = new Set([
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Node's (OpenSSL's) codes for a certificate that does not verify. */
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME|ALTNAME/;

/** The message node gives when the peer closes (FIN) before the TLS handshake ends. */
const CLOSED_BEFORE_TLS = /disconnected before secure TLS connection/i;

/**
 * The error class (PROBE_ERROR_CLASSES) of a socket or TLS error. While the TLS handshake runs,
 * node reports an orderly close (FIN) as ECONNRESET too, but with its own message; a real RST
 * is `read ECONNRESET`.
 */
export function classifyNetworkError(error: Error, stage: CheckStage): ProbeErrorClass {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ECONNREFUSED') return 'refused';
  if (UNREACHABLE.has(code)) return 'unreachable';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (stage === 'handshake' && CLOSED_BEFORE_TLS.test(error.message)) return 'closed';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (stage === 'handshake') {
    if (CERTIFICATE.test(code)) return 'wrong_certificate';
    if (code.startsWith('ERR_SSL_') || /alert|handshake/i.test(error.message)) return 'tls_alert';
  }
  return 'closed';
}
