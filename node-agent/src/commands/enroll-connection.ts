import path from 'node:path';
import { z } from 'zod';
import { type ControlPlaneConnection, isLoopback } from '../grpc/control-plane-client';
import { formatHostPort, parseControlPlaneList } from '../grpc/control-plane-endpoints';

/**
 * The control plane address flag of `enroll` and `probe enroll`: one or several host:port,
 * stored in one form in the config (`host:port,host:port`).
 */
export const controlPlaneListFlag = () =>
  z
    .string({ error: 'is required (the control plane gRPC address, host:port)' })
    .refine(
      (s) => parseControlPlaneList(s) !== null,
      'must be host:port, e.g. scn.example.com:50051, or several separated by commas',
    )
    .transform((s) => parseControlPlaneList(s)!.map(formatHostPort).join(','));

/**
 * How an enrolling command reaches `target` (a list the flag above checked): TLS, except
 * plaintext to a loopback control plane (development, demo nodes) when no CA file is given.
 */
export function enrollConnection(
  target: string,
  flags: { caFile?: string; insecure: boolean },
): ControlPlaneConnection {
  const remote = parseControlPlaneList(target)!.some((entry) => !isLoopback(entry.host));
  return {
    target,
    tls: flags.caFile !== undefined || (!flags.insecure && remote),
    // Absolute: the daemon runs from another folder (systemd: /) and reads it from the config.
    caFile: flags.caFile === undefined ? undefined : path.resolve(flags.caFile),
    insecure: flags.insecure,
  };
}
