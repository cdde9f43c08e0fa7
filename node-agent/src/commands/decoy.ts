import type { Command } from 'commander';
import { z } from 'zod';
import {
  type AgentConfig,
  readAgentConfig,
  resolveConfigPath,
  writeAgentConfig,
} from '../config/agent-config';
import { AgentError, EXIT_CODES } from '../errors';
import { parseDecoyUpstream, usesFallback } from '../proxy-core/decoy';
import { realityServerName } from '../proxy-core/inbound-setup';
import { blockedTargetReason, REALITY_TARGET_CANDIDATES } from '../proxy-core/reality-targets';
import { type CommandIo, parseFlags, processIo } from './context';

/**
 * `scn-agent decoy`: which web server answers active probers behind the TLS inbound
 * (docs/security.md "Active probing"): the agent's own decoy site (default) or the operator's
 * plain-HTTP site; on a REALITY node, the target it relays strangers to. Kept in the config; the
 * daemon reads it when it starts.
 */

export const decoyFlagsSchema = z
  .object({
    config: z.string().optional(),
    upstream: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined) return undefined;
        try {
          return parseDecoyUpstream(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    builtin: z.boolean().default(false),
    /** REALITY: the target strangers are relayed to (reality-targets.ts; doctor checks it). */
    realityDest: z
      .string()
      .regex(
        /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d{1,5}$/,
        'must be host:port, e.g. www.debian.org:443',
      )
      .optional(),
    realitySni: z
      .string()
      .regex(/^(?=.{1,253}$)[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be a host name')
      .optional(),
  })
  .refine((flags) => !(flags.upstream && flags.builtin), {
    message: '--upstream and --builtin exclude each other',
    path: ['builtin'],
  })
  .refine((flags) => !flags.realitySni || flags.realityDest, {
    message: 'goes with --reality-dest',
    path: ['realitySni'],
  });
export type DecoyFlags = z.input<typeof decoyFlagsSchema>;

export function describeDecoy(config: AgentConfig): string {
  const which = config.decoy?.upstream
    ? `the operator's site at ${config.decoy.upstream}`
    : `the agent's decoy site${config.decoy?.port ? ` on 127.0.0.1:${config.decoy.port}` : ''}`;
  return usesFallback(config)
    ? `probers of the TLS inbound get ${which}`
    : `${which} (unused: ${config.inbound.security}/${config.inbound.network} takes no VLESS fallback)`;
}

export async function decoy(
  rawFlags: DecoyFlags,
  io: CommandIo = processIo,
  env?: NodeJS.ProcessEnv,
): Promise<AgentConfig> {
  const flags = parseFlags(decoyFlagsSchema, rawFlags);
  const file = resolveConfigPath(flags.config, env);
  const config = await readAgentConfig(file);
  if (flags.realityDest) return setRealityTarget(file, config, flags, io);
  if (!flags.upstream && !flags.builtin) {
    io.out(`${describeDecoy(config)}\n`);
    return config;
  }
  const next: AgentConfig = {
    ...config,
    decoy: flags.upstream
      ? { ...config.decoy, upstream: flags.upstream }
      : { port: config.decoy?.port },
  };
  await writeAgentConfig(file, next);
  io.out(`${describeDecoy(next)}.\nRestart the agent to apply it: systemctl restart scn-agent\n`);
  return next;
}

/**
 * A REALITY node's probers are answered by its target: changing it changes the sni in every
 * client's link, which the next report gives the control plane (clients pick it up when their
 * subscription refreshes).
 */
async function setRealityTarget(
  file: string,
  config: AgentConfig,
  flags: { realityDest?: string; realitySni?: string },
  io: CommandIo,
): Promise<AgentConfig> {
  if (config.inbound.security !== 'reality') {
    throw new AgentError(
      `--reality-dest is for a REALITY inbound; this node serves ${config.inbound.security}`,
      { exitCode: EXIT_CODES.usage },
    );
  }
  const dest = flags.realityDest!;
  const next: AgentConfig = {
    ...config,
    inbound: {
      ...config.inbound,
      realityDest: dest,
      sni: flags.realitySni ?? realityServerName(dest),
    },
  };
  await writeAgentConfig(file, next);
  const blocked = blockedTargetReason(next.inbound.sni!);
  io.out(
    `REALITY target ${dest} (sni ${next.inbound.sni}).` +
      `${blocked ? ` Warning: ${blocked}.` : ''}\n` +
      'Check it from here with scn-agent doctor, then restart the agent: systemctl restart scn-agent\n',
  );
  return next;
}

export function registerDecoy(program: Command, io: CommandIo = processIo): void {
  program
    .command('decoy')
    .description('show or set the web site active probers of the TLS inbound are answered with')
    .option(
      '--upstream <host:port>',
      'your own plain-HTTP site (host:port or http://host:port) instead of the built-in decoy',
    )
    .option('--builtin', "go back to the agent's built-in decoy site")
    .option(
      '--reality-dest <host:port>',
      `REALITY: the site strangers are relayed to (checked ones: ${REALITY_TARGET_CANDIDATES.map((c) => c.dest).join(', ')})`,
    )
    .option(
      '--reality-sni <name>',
      'REALITY: the server name clients send (default: the target host)',
    )
    .option(
      '--config <path>',
      'config file (default $SCN_AGENT_CONFIG or /etc/scn-agent/config.json)',
    )
    .action(async (flags: DecoyFlags) => {
      await decoy(flags, io);
    });
}
