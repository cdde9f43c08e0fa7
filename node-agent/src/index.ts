#!/usr/bin/env node
import { handleError } from './errors';
import { buildProgram } from './program';

// The only process.exit of the agent: commands return or throw, this maps the outcome.
buildProgram()
  .parseAsync(process.argv)
  .then(
    () => process.exit(0),
    (error: unknown) => process.exit(handleError(error, (text) => void process.stderr.write(text))),
  );
