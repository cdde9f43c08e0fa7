import type { Command } from 'commander';
import { type CommandIo, processIo } from './context';
import { type ProbeEnrollFlags, probeEnroll } from './probe-enroll';
import { type ProbeRunFlags, probeRun } from './probe-run';

/** `scn-agent probe enroll | run`: a vantage point that tests servers' reachability from here. */
export function registerProbe(program: Command, io: CommandIo = processIo): void {
  const probe = program
    .command('probe')
    .description('a vantage point: test from this network whether SCN servers can be reached');
  probe
    .command('enroll')
    .description("exchange a one-time token for this vantage point's credential")
    .option(
      '--control-plane <host:port>',
      'control plane gRPC address; several replicas: host:port,host:port',
    )
    .option('--token <token>', 'one-time token from the portal (Vantage points)')
    .option('--name <name>', 'a name you see in your list (default: the one given with the token)')
    .option('--insecure', 'plaintext gRPC to a non-loopback control plane (not recommended)')
    .option('--ca-file <path>', 'CA certificate of the control plane (implies TLS)')
    .option(
      '--config <path>',
      'probe config file (default $SCN_PROBE_CONFIG or /etc/scn-agent/probe.json)',
    )
    .option('--force', 'enroll again even when a probe config exists')
    .action(async (flags: ProbeEnrollFlags) => {
      await probeEnroll(flags, { io });
    });
  probe
    .command('run')
    .description('ask for endpoints, test them, report; repeat until SIGTERM')
    .option(
      '--config <path>',
      'probe config file (default $SCN_PROBE_CONFIG or /etc/scn-agent/probe.json)',
    )
    .option('--concurrency <n>', 'endpoints tested at once (1-64)', '8')
    .option('--once', 'one cycle, then exit')
    .action(async (flags: ProbeRunFlags) => {
      await probeRun(flags, { io });
    });
  for (const command of probe.commands) command.exitOverride().showHelpAfterError();
}
