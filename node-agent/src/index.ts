#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    process.stderr.write(`scn-agent: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
