import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './app-config';
import { ENV_VARS } from './env.schema';

describe('README configuration table', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const documented = [...readme.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => m[1]);

  it('should document every environment variable the control plane reads, and no other', () => {
    expect([...documented].sort()).toEqual(Object.keys(ENV_VARS).sort());
  });
});
