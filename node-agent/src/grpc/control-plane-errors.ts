import net from 'node:net';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { AgentError, EXIT_CODES } from '../errors';
import { parseControlPlaneList } from './control-plane-endpoints';
import { type ControlPlaneConnection, readCaFile } from './endpoint-channels';

/**
 * Why a TLS handshake with the control plane fails (node's words, e.g. "unable to verify the
 * first certificate"), or null when it succeeds: grpc-js's own errors may not say.
 */
export function tlsHandshakeError(
  connection: Pick<ControlPlaneConnection, 'target' | 'caFile'>,
  timeoutMs = 3_000,
  /** The name the certificate must hold, when `target` is an address looked up from it. */
  name?: string,
): Promise<string | null> {
  const target = parseControlPlaneList(connection.target)?.[0];
  if (!target) return Promise.resolve('the address is not host:port');
  const serverName = name ?? target.host;
  let ca: Buffer | undefined;
  try {
    ca = connection.caFile ? readCaFile(connection.caFile) : undefined;
  } catch (error) {
    return Promise.resolve((error as Error).message);
  }
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      ca,
      servername: net.isIP(serverName) ? undefined : serverName,
      ALPNProtocols: ['h2'],
    });
    const done = (result: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(`no TLS handshake within ${timeoutMs} ms`), timeoutMs);
    socket.once('secureConnect', () => done(null));
    socket.once('error', (error) => done(error.message));
  });
}

/** Node's words for a certificate the agent does not trust, as grpc-js passes them on. */
const TLS_TRUST_FAILURE =
  /certificate|self[- ]signed|Hostname\/IP does not match|unable to get (local )?issuer/i;

/** grpc-js appends "Resolution note: " even when it has none. */
function cleanDetails(details: string): string {
  return details.replace(/\.?\s*Resolution note:\s*$/, '').trim();
}

/**
 * A gRPC failure as an operator-facing error: exit 69 when the control plane is unreachable;
 * a certificate the agent does not trust is named as such (it is not a network problem, and
 * retrying will not help), with the CA file it was checked against.
 */
export function describeGrpcError(
  error: unknown,
  action: string,
  connection?: ControlPlaneConnection,
): AgentError {
  const service = error as Partial<grpc.ServiceError>;
  const code = service.code;
  const details = cleanDetails(
    service.details || (error instanceof Error ? error.message : String(error)),
  );
  if (
    connection?.tls &&
    (code === grpc.status.UNAVAILABLE || code === undefined) &&
    TLS_TRUST_FAILURE.test(details)
  ) {
    const reason = details.replace(/^.*Last error: (Error: )?/, '');
    const host =
      parseControlPlaneList(connection.target)
        ?.map((entry) => entry.host)
        .join(', ') ?? connection.target;
    const hostMismatch = /does not match/i.test(reason);
    return new AgentError(
      hostMismatch
        ? `${action}: the control plane's TLS certificate is not valid for ${host} (${reason})`
        : `${action}: the control plane's TLS certificate is not trusted (${reason})` +
            (connection.caFile
              ? `: it was not issued by a CA in ${connection.caFile}`
              : ': it was not issued by a CA this machine trusts'),
      {
        hint: hostMismatch
          ? 'use in --server a host name (or IP) that the control plane certificate lists'
          : connection.caFile
            ? 'pass --ca-file the CA certificate that issued the control plane certificate (GRPC_TLS_CERT)'
            : 'if the control plane certificate comes from a private CA, pass --ca-file <that CA certificate>',
        cause: error,
      },
    );
  }
  if (code === grpc.status.UNAVAILABLE || code === grpc.status.DEADLINE_EXCEEDED) {
    return new AgentError(`${action}: control plane unreachable (${details})`, {
      exitCode: EXIT_CODES.unavailable,
      hint:
        connection && !connection.tls
          ? 'check --server (host:port of the gRPC port) and the firewall; a control plane with a TLS certificate (GRPC_TLS_CERT) needs --ca-file <its CA> (or, with a public CA, a non-loopback --server)'
          : 'check --server (host:port of the gRPC port), the firewall, and TLS vs --insecure',
      cause: error,
    });
  }
  const name = code === undefined ? 'error' : (grpc.status[code] ?? String(code));
  return new AgentError(`${action}: ${name}: ${details}`, { cause: error });
}
