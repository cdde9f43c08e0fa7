import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import {
  type AgentConfig,
  readAgentConfig,
  resolveConfigPath,
  writeAgentConfig,
} from '../config/agent-config';
import { AgentError, EXIT_CODES } from '../errors';
import { acmeSettings, LETS_ENCRYPT_DIRECTORY } from '../certificates/acme-settings';
import { certificateStatus, describeCertificateStatus } from '../certificates/certificate-status';
import {
  certificateFlagShapes,
  obtainAtEnrollment,
  withCertificateOptions,
} from './enroll-certificate';
import { type CommandIo, parseFlags, processIo } from './context';

/**
 * `scn-agent certificate`: shows where the node's TLS certificate comes from, and changes it
 * without re-enrolling: the operator's own name (`--domain`), the ACME CA
 * (`--acme`), or a new order now (`--renew`). A changed setting orders at once; the running
 * daemon serves the new certificate after a restart (its config keeps the edit meanwhile:
 * AgentConfigStore).
 */
export const certificateFlagsSchema = z
  .object({
    config: z.string().optional(),
    ...certificateFlagShapes,
    /** commander's --no-domain: false. */
    noDomain: z.boolean().default(false),
    renew: z.boolean().default(false),
  })
  .refine((flags) => !(flags.domain && flags.noDomain), {
    message: '--domain and --no-domain exclude each other',
    path: ['domain'],
  });
export type CertificateFlags = Partial<
  Record<keyof z.input<typeof certificateFlagsSchema>, unknown>
>;

/** The config with the flags' ACME settings; null when they change nothing. */
export function withCertificateFlags(
  config: AgentConfig,
  flags: z.output<typeof certificateFlagsSchema>,
): AgentConfig | null {
  const asked =
    flags.domain ||
    flags.noDomain ||
    flags.acme ||
    flags.acmeCaFile ||
    flags.acmeHttpPort ||
    flags.acmeEmail;
  if (!asked) return null;
  const current = acmeSettings(config);
  const next = { ...current };
  if (flags.acme === 'off') next.enabled = false;
  else if (flags.acme) {
    next.enabled = true;
    next.directoryUrl = flags.acme === 'letsencrypt' ? LETS_ENCRYPT_DIRECTORY : flags.acme;
  }
  if (flags.acmeCaFile) next.caFile = path.resolve(flags.acmeCaFile);
  if (flags.acmeHttpPort) next.httpPort = flags.acmeHttpPort;
  if (flags.acmeEmail) next.email = flags.acmeEmail;
  if (flags.domain) next.domain = flags.domain;
  if (flags.noDomain) delete next.domain;
  if (JSON.stringify(next) === JSON.stringify(current) && config.acme) return null;
  return { ...config, acme: next };
}

export async function certificate(
  rawFlags: CertificateFlags,
  io: CommandIo = processIo,
  env?: NodeJS.ProcessEnv,
): Promise<AgentConfig> {
  const flags = parseFlags(certificateFlagsSchema, {
    ...rawFlags,
    // commander gives --no-domain as domain: false.
    noDomain: rawFlags.domain === false,
    domain: rawFlags.domain === false ? undefined : rawFlags.domain,
  });
  const file = resolveConfigPath(flags.config, env);
  let config = await readAgentConfig(file);
  if (config.inbound.security !== 'tls') {
    const wantsChange = flags.domain || flags.noDomain || flags.acme || flags.renew;
    if (wantsChange) {
      throw new AgentError(
        `this node serves ${config.inbound.security}, which has no certificate of its own`,
        { exitCode: EXIT_CODES.usage },
      );
    }
    io.out(`No TLS certificate: this node serves ${config.inbound.security}.\n`);
    return config;
  }
  const changed = withCertificateFlags(config, flags);
  if (changed) {
    await writeAgentConfig(file, changed);
    config = changed;
  }
  if (changed || flags.renew) {
    if (!acmeSettings(config).enabled) {
      io.out('ACME is off: the node keeps the certificate it has.\n');
    } else {
      const line = await obtainAtEnrollment(file, io, 90_000, { force: flags.renew });
      if (line) io.out(line);
      config = await readAgentConfig(file);
    }
    io.out('Restart the agent to serve it: systemctl restart scn-agent\n');
  }
  const status = certificateStatus(config)!;
  io.out(`Certificate: ${describeCertificateStatus(status)}\n`);
  return config;
}

export function registerCertificate(program: Command, io: CommandIo = processIo): void {
  withCertificateOptions(program.command('certificate'))
    .description('show or change where the TLS certificate comes from (its name, the ACME CA)')
    .option('--no-domain', "drop the own name: the platform's name for the node, else its address")
    .option('--renew', 'order a new certificate now')
    .option(
      '--config <path>',
      'config file (default $SCN_AGENT_CONFIG or /etc/scn-agent/config.json)',
    )
    .action(async (flags: CertificateFlags) => {
      await certificate(flags, io);
    });
}
