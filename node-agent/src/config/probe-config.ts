import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AgentError, EXIT_CODES } from '../errors';
import { CONTROL_PLANE_LIST_MESSAGE, parseControlPlaneList } from '../grpc/control-plane-endpoints';
import { writePrivateFile } from './agent-config';

/**
 * A vantage point's state file (`scn-agent probe enroll`): its credential and how to reach the
 * control plane. Separate from the node's config, so one machine can be both; it holds the probe
 * secret, so it is written 0600 and refused when group/others can read it.
 */

export const DEFAULT_PROBE_CONFIG_PATH = '/etc/scn-agent/probe.json';
export const PROBE_CONFIG_ENV = 'SCN_PROBE_CONFIG';

/** --config, else $SCN_PROBE_CONFIG, else the default. */
export function resolveProbeConfigPath(
  flag?: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return path.resolve(flag || env[PROBE_CONFIG_ENV] || DEFAULT_PROBE_CONFIG_PATH);
}

export const probeConfigSchema = z.object({
  /** gRPC target of the control plane, `host:port`, or its replicas' `host:port,host:port`. */
  controlPlane: z
    .string()
    .refine((text) => parseControlPlaneList(text) !== null, CONTROL_PLANE_LIST_MESSAGE),
  /** As the node's config: how often (ms, up to twice it) to check its preferred endpoint. */
  preferredEndpointCheckMs: z.number().int().min(1000).max(3_600_000).optional(),
  tls: z.boolean(),
  insecure: z.boolean().default(false),
  caFile: z.string().min(1).optional(),
  probeId: z.string().min(1, 'is required'),
  probeSecret: z.string().min(1, 'is required'),
  name: z.string().max(100).default(''),
  /** Where the control plane placed this vantage point at enrollment ('' unknown, 0 unknown). */
  country: z.string().max(2).default(''),
  asn: z.number().int().min(0).default(0),
});
export type ProbeConfig = z.infer<typeof probeConfigSchema>;
export type ProbeConfigInput = z.input<typeof probeConfigSchema>;

function configError(file: string, message: string, hint?: string): AgentError {
  return new AgentError(`probe config ${file}: ${message}`, { exitCode: EXIT_CODES.config, hint });
}

export async function writeProbeConfig(file: string, config: ProbeConfigInput): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(probeConfigSchema.parse(config), null, 2)}\n`);
}

/** Reads and validates the probe config; every failure names the file (and field). Exit 78. */
export async function readProbeConfig(file: string): Promise<ProbeConfig> {
  const mode = await stat(file).then(
    (stats) => stats.mode,
    (error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT'
        ? configError(
            file,
            'not found',
            'enroll this vantage point first: scn-agent probe enroll --control-plane HOST:PORT --token TOKEN',
          )
        : configError(file, `cannot be read (${error.message})`);
    },
  );
  if ((mode & 0o077) !== 0) {
    throw configError(
      file,
      `is readable by group or others (mode ${(mode & 0o777).toString(8)}); it holds the probe secret`,
      `chmod 600 ${file}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw configError(file, `is not valid JSON (${(error as Error).message})`);
  }
  const parsed = probeConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(
      file,
      `field "${issue?.path.join('.') || '(root)'}": ${issue?.message ?? 'invalid'}`,
      'enroll again with scn-agent probe enroll --force',
    );
  }
  return parsed.data;
}
