import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import type { InboundSecurity } from '../proxy-core/inbound-setup';
import { AgentConfigStore, readAgentConfig } from '../config/agent-config';
import { AgentError, EXIT_CODES } from '../errors';
import { CertificateManager } from '../certificates/certificate-manager';
import {
  type AcmeSettings,
  defaultAcmeSettings,
  LETS_ENCRYPT_DIRECTORY,
} from '../certificates/acme-settings';
import { tlsDirFor } from '../proxy-core/inbound-setup';
import type { CommandIo } from './context';

/**
 * The certificate flags `scn-agent enroll` and `scn-agent certificate` share: the operator's own
 * name, the ACME directory (`letsencrypt`, `off` or a URL), its HTTPS CA, the HTTP-01 port and a
 * contact address.
 */
export const certificateFlagShapes = {
  domain: z
    .string()
    .regex(
      /^(?=.{1,253}$)[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/,
      'must be a host name, e.g. vpn.example.com',
    )
    .transform((name) => name.toLowerCase())
    .optional(),
  acme: z
    .string()
    .refine(
      (value) => value === 'off' || value === 'letsencrypt' || /^https:\/\/\S+$/.test(value),
      'must be letsencrypt, off or the https URL of an ACME directory',
    )
    .optional(),
  acmeCaFile: z.string().min(1).optional(),
  acmeHttpPort: z.coerce.number().int().min(1).max(65535).optional(),
  acmeEmail: z.string().email('must be an e-mail address').optional(),
};

/** The command-line options of certificateFlagShapes, for enroll and certificate alike. */
export function withCertificateOptions(command: Command): Command {
  return command
    .option(
      '--domain <name>',
      "TLS: this server's own name (its DNS points here): the certificate is for it",
    )
    .option(
      '--acme <directory>',
      'TLS: letsencrypt (default) | off | an ACME directory URL (a loopback control plane: off)',
    )
    .option('--acme-ca-file <path>', "CA certificate of the ACME server's HTTPS (a private CA)")
    .option('--acme-http-port <port>', 'where the HTTP-01 challenge is answered (default 80)')
    .option('--acme-email <address>', 'contact for the CA (expiry notices)');
}

/** The certificate flags of `scn-agent enroll` (see enrollFlagsSchema). */
export interface CertificateFlags {
  server: string;
  domain?: string;
  acme?: string;
  acmeCaFile?: string;
  acmeHttpPort?: number;
  acmeEmail?: string;
  certificateFile?: string;
}

/** The ACME settings the flags ask for, checked before the token is spent. */
export function acmeSettingsFromFlags(
  flags: CertificateFlags,
  security: InboundSecurity,
): AcmeSettings {
  const usage = (message: string) => new AgentError(message, { exitCode: EXIT_CODES.usage });
  const base = defaultAcmeSettings(flags.server);
  const enabled =
    flags.acme === undefined ? base.enabled && !flags.certificateFile : flags.acme !== 'off';
  if (enabled && flags.certificateFile) {
    throw usage("--certificate-file and --acme go apart: the operator's certificate or a CA's");
  }
  if (!enabled && flags.acme === undefined && flags.domain && !flags.certificateFile) {
    // A loopback control plane (development): --domain alone does not reach out to a public CA.
    throw usage(
      '--domain needs --acme (letsencrypt or a directory URL) with a loopback control plane',
    );
  }
  if (security === 'none' && (flags.domain || (flags.acme && flags.acme !== 'off'))) {
    throw usage('--domain and --acme are for a TLS inbound, not --security none');
  }
  return {
    enabled,
    directoryUrl:
      flags.acme && flags.acme !== 'off' && flags.acme !== 'letsencrypt'
        ? flags.acme
        : LETS_ENCRYPT_DIRECTORY,
    httpPort: flags.acmeHttpPort ?? 80,
    ...(flags.acmeCaFile ? { caFile: path.resolve(flags.acmeCaFile) } : {}),
    ...(flags.acmeEmail ? { email: flags.acmeEmail } : {}),
    ...(flags.domain ? { domain: flags.domain } : {}),
  };
}

/**
 * Right after enrollment, before the node is in any link: one order for a publicly trusted
 * certificate (the daemon keeps trying when this one fails). Returns the line enroll prints.
 */
export async function obtainAtEnrollment(
  configPath: string,
  io: CommandIo,
  orderTimeoutMs = 90_000,
  options: { force?: boolean } = {},
): Promise<string> {
  const config = await readAgentConfig(configPath);
  const store = new AgentConfigStore(configPath, config);
  const manager = new CertificateManager({
    store,
    core: null,
    tlsDir: tlsDirFor(configPath),
    orderTimeoutMs,
    log: (message) => io.err(`scn-agent: ${message}\n`),
  });
  const outcome = await manager.ensure(true, options.force);
  switch (outcome.outcome) {
    case 'not_needed':
    case 'current':
    case 'waiting':
      return '';
    case 'issued':
      return (
        `Certificate: issued by the CA for ${outcome.identity.value}, ` +
        `valid until ${new Date(outcome.notAfter).toISOString()} (renewed by the agent).\n`
      );
    case 'failed':
      return (
        `Certificate: SELF-SIGNED for now (${outcome.error}); apps that cannot pin it will ` +
        `not connect. The agent asks the CA again at ${new Date(outcome.retryAt).toISOString()}.\n`
      );
  }
}
