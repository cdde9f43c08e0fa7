import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_NODE_ENV, AGENT_NODE_FLAGS } from './node-flags';

describe('AGENT_NODE_FLAGS', () => {
  it('should be the flags the installer’s launcher starts the agent with', () => {
    const script = readFileSync(join(__dirname, '..', '..', 'installer', 'install.sh'), 'utf8');
    const env = Object.entries(AGENT_NODE_ENV)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    expect(script).toContain(
      `exec env ${env} node ${AGENT_NODE_FLAGS.join(' ')} "$INSTALL_DIR/bin/scn-agent.js" "\\$@"`,
    );
  });

  it('should be accepted by this Node.js', () => {
    const { status, stderr } = spawnSync(
      process.execPath,
      [...AGENT_NODE_FLAGS, '-e', 'process.exit(0)'],
      { encoding: 'utf8' },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });
});
