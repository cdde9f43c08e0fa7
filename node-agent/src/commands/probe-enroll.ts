import { access } from 'node:fs/promises';
import { z } from 'zod';
import { resolveProbeConfigPath, writeProbeConfig } from '../config/probe-config';
import { AgentError } from '../errors';
import { describeGrpcError } from '../grpc/control-plane-client';
import { ProbeClient } from '../grpc/probe-client';
import { AGENT_VERSION, type CommandIo, parseFlags, processIo } from './context';
import { controlPlaneListFlag, enrollConnection } from './enroll-connection';

export const probeEnrollFlagsSchema = z.object({
  controlPlane: controlPlaneListFlag(),
  token: z
    .string({ error: 'is required (the one-time token from the portal)' })
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be the token the portal gave'),
  name: z
    .string()
    .trim()
    .min(1, 'must be 1 to 100 characters on one line')
    .max(100, 'must be 1 to 100 characters on one line')
    // eslint-disable-next-line no-control-regex
    .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must be on one line')
    .optional(),
  insecure: z.boolean().default(false),
  caFile: z.string().min(1).optional(),
  config: z.string().optional(),
  force: z.boolean().default(false),
});
export type ProbeEnrollFlags = Partial<
  Record<keyof z.input<typeof probeEnrollFlagsSchema>, unknown>
>;

export interface ProbeEnrollResult {
  configPath: string;
  probeId: string;
}

/** `scn-agent probe enroll`: exchanges a one-time token for this vantage point's credential. */
export async function probeEnroll(
  rawFlags: ProbeEnrollFlags,
  deps: { io?: CommandIo; env?: NodeJS.ProcessEnv } = {},
): Promise<ProbeEnrollResult> {
  const io = deps.io ?? processIo;
  const flags = parseFlags(probeEnrollFlagsSchema, rawFlags);
  const configPath = resolveProbeConfigPath(flags.config, deps.env);
  const exists = await access(configPath).then(
    () => true,
    () => false,
  );
  if (exists && !flags.force) {
    throw new AgentError(`this vantage point is already enrolled (${configPath} exists)`, {
      hint: 'pass --force to enroll again with a new token (the old probe id stops working)',
    });
  }
  const connection = enrollConnection(flags.controlPlane, flags);
  const client = new ProbeClient(connection);
  let response;
  try {
    response = await client.enrollProbe({
      enrollmentToken: flags.token,
      agentVersion: AGENT_VERSION,
      name: flags.name ?? '',
    });
  } catch (error) {
    throw describeGrpcError(error, 'probe enrollment failed', connection);
  } finally {
    client.close();
  }
  await writeProbeConfig(configPath, {
    controlPlane: flags.controlPlane,
    tls: connection.tls,
    insecure: flags.insecure,
    caFile: connection.caFile,
    probeId: response.probeId,
    probeSecret: response.probeSecret,
    name: flags.name ?? '',
    country: response.country,
    asn: response.asn,
  });
  const place = [response.country, response.asn ? `AS${response.asn}` : ''].filter(Boolean);
  io.out(
    `Enrolled vantage point ${response.probeId}` +
      `${place.length ? ` (seen from ${place.join(', ')})` : ''}.\n` +
      `Config written to ${configPath} (mode 0600). Start it: scn-agent probe run\n`,
  );
  return { configPath, probeId: response.probeId };
}
