import { Command } from 'commander';
import { version } from '../package.json';
import { processIo, type CommandIo } from './commands/context';
import { registerCertificate } from './commands/certificate';
import { registerDecoy } from './commands/decoy';
import { registerDoctor } from './commands/doctor';
import { registerEnroll } from './commands/enroll';
import { registerProbe } from './commands/probe';
import { registerRun } from './commands/run';
import { registerStatus } from './commands/status';

/** The `scn-agent` command line: enroll, run, status, doctor, decoy, certificate, probe. */
export function buildProgram(io: CommandIo = processIo): Command {
  const program = new Command('scn-agent')
    .description(
      'SCN node agent: runs the proxy core on this VPS and reports to the SCN control plane',
    )
    .version(version, '-v, --version', 'print the agent version')
    .showHelpAfterError()
    .exitOverride();
  registerEnroll(program, io);
  registerRun(program, io);
  registerStatus(program, io);
  registerDoctor(program, io);
  registerDecoy(program, io);
  registerCertificate(program, io);
  registerProbe(program, io);
  // Subcommands inherit exitOverride only when it is set before they are added; set it on each.
  for (const command of program.commands) command.exitOverride().showHelpAfterError();
  return program;
}
