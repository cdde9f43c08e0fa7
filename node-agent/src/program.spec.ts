import { CommanderError } from 'commander';
import { buildProgram } from './program';

describe('scn-agent program', () => {
  it('should print its version', () => {
    const program = buildProgram();
    let out = '';
    program.configureOutput({ writeOut: (s) => (out += s) });
    expect(() => program.parse(['node', 'scn-agent', '--version'])).toThrow(CommanderError);
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('should refuse an unknown option with exit code 1', () => {
    const program = buildProgram();
    program.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
    try {
      program.parse(['node', 'scn-agent', '--bogus']);
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(CommanderError);
      expect((error as CommanderError).exitCode).toBe(1);
    }
  });
});
