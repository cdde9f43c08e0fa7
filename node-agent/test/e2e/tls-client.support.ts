import { createHash, type X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import type { VlessInbound } from '@scn/proto';

/**
 * What a client does with a node's reported TLS inbound: it has no CA to trust, so
 * it checks the certificate the node presents against the reported pin (SHA-256 of the leaf
 * DER), and then trusts exactly that certificate. v2ray 4.34 cannot pin a hash, so the client
 * config gives it the pinned certificate as its only authority (`usage: "verify"`).
 */

/** The leaf certificate the TLS server at host:port presents (nothing is verified here). */
export function presentedCertificate(
  host: string,
  port: number,
  servername?: string,
): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        host,
        port,
        // An IP is sent as no server name at all (RFC 6066), as Go clients do.
        ...(servername && net.isIP(servername) === 0 ? { servername } : {}),
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1', 'h2'],
      },
      () => {
        const certificate = socket.getPeerX509Certificate();
        socket.destroy();
        if (certificate) resolve(certificate);
        else reject(new Error(`${host}:${port} presented no certificate`));
      },
    );
    socket.once('error', reject);
  });
}

/** The certificate's pin as the agent reports it: lower-case hex SHA-256 of its DER. */
export function certificatePin(certificate: X509Certificate): string {
  return createHash('sha256').update(certificate.raw).digest('hex');
}

/**
 * v2ray client stream settings from the reported inbound alone, after checking the presented
 * certificate against its pin (throws on a mismatch, as a pinning client refuses to connect).
 */
export async function clientStreamSettings(
  inbound: VlessInbound,
  host: string,
  port: number,
): Promise<Record<string, unknown>> {
  const network = inbound.network || 'tcp';
  const transport =
    network === 'ws'
      ? { wsSettings: { path: inbound.path } }
      : network === 'grpc'
        ? { grpcSettings: { serviceName: inbound.serviceName } }
        : {};
  if (inbound.security !== 'tls') {
    throw new Error(`a v2ray client cannot dial security=${inbound.security}`);
  }
  const presented = await presentedCertificate(host, port, inbound.sni || undefined);
  const pin = certificatePin(presented);
  if (!inbound.certificateSha256 || pin !== inbound.certificateSha256) {
    throw new Error(`pin mismatch: presented ${pin}, reported ${inbound.certificateSha256}`);
  }
  return {
    network,
    security: 'tls',
    tlsSettings: {
      serverName: inbound.sni,
      certificates: [{ usage: 'verify', certificate: presented.toString().trim().split('\n') }],
    },
    ...transport,
  };
}
