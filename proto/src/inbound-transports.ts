import type { ProxyCoreKind } from './grpc';

/**
 * What a proxy core can serve: one rule for the agent, which refuses a plan or an
 * enrollment its core cannot serve, and for the control plane, which offers operators only the
 * transports their node's core serves.
 */
export type InboundSecurityKind = 'none' | 'tls' | 'reality';
export type InboundNetworkKind = 'tcp' | 'ws' | 'grpc';

/** The security a core serves when nobody asked for one: REALITY on Xray, TLS on v2ray. */
export function coreDefaultSecurity(kind: ProxyCoreKind): 'reality' | 'tls' {
  return kind === 'xray' ? 'reality' : 'tls';
}

/** Why a core cannot serve a combination, or null when it can. */
export function inboundUnsupportedReason(
  kind: ProxyCoreKind,
  security: InboundSecurityKind,
  network: InboundNetworkKind,
): string | null {
  if (security === 'reality' && kind !== 'xray') {
    return `REALITY needs Xray; this node runs ${kind}, which would serve it unencrypted`;
  }
  if (security === 'reality' && network === 'ws') return 'REALITY runs over tcp or grpc, not ws';
  // Measured: Debian's v2ray 4.34 refuses `"network": "grpc"` ("unknown transport protocol");
  // gRPC came with v2ray 4.35 and is in every Xray.
  if (network === 'grpc' && kind === 'v2ray') {
    return 'v2ray 4.34 has no gRPC transport (use tcp or ws, or Xray)';
  }
  return null;
}
