import { Command } from 'commander';
import { version } from '../package.json';

/**
 * The `scn-agent` command line. Its commands (enroll, run, status, doctor) arrive with the
 * operator-journey release; this is the entry point they attach to.
 */
export function buildProgram(): Command {
  return new Command('scn-agent')
    .description(
      'SCN node agent: runs the proxy core on this VPS and reports to the SCN control plane',
    )
    .version(version, '-v, --version', 'print the agent version')
    .showHelpAfterError()
    .exitOverride();
}
