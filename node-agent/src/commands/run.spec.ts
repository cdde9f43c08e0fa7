import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleConfig } from '../config/agent-config.fixture';
import { agentConfigSchema, writeAgentConfig } from '../config/agent-config';
import { AgentError, EXIT_CODES } from '../errors';
import { buildProgram } from '../program';
import { proxyCoreOptions, run } from './run';

const quiet = { out: () => undefined, err: () => undefined };

async function configFile(): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'scn-run-')), 'config.json');
  await writeAgentConfig(file, sampleConfig());
  return file;
}

describe('run --allow-test-destinations', () => {
  it('should refuse a range outside the documentation ranges with a usage error naming the flag', async () => {
    const program = buildProgram(quiet);
    const config = await configFile();
    const failure = program
      .parseAsync([
        'node',
        'scn-agent',
        'run',
        '--config',
        config,
        '--allow-test-destinations',
        '10.0.0.0/8',
      ])
      .catch((error: unknown) => error);
    const error = (await failure) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.exitCode).toBe(EXIT_CODES.usage);
    expect(error.message).toMatch(
      /^--allow-test-destinations: 10\.0\.0\.0\/8 is outside the documentation ranges/,
    );
  });

  it('should refuse loopback given through SCN_AGENT_ALLOW_TEST_DESTINATIONS the same way', async () => {
    const error = (await run(
      { config: await configFile() },
      { io: quiet, env: { SCN_AGENT_ALLOW_TEST_DESTINATIONS: '127.0.0.1' } },
    ).catch((caught: unknown) => caught)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.exitCode).toBe(EXIT_CODES.usage);
    expect(error.message).toMatch(/^--allow-test-destinations: 127\.0\.0\.1 is outside/);
    expect(error.message).toContain('SCN_AGENT_ALLOW_TEST_DESTINATIONS');
  });

  it('should hand the core the normalised CIDRs, the flag winning over the environment, and say so', async () => {
    const seen: string[][] = [];
    let log = '';
    await run(
      { config: await configFile(), allowTestDestinations: '198.51.100.7, 203.0.113.0/24' },
      {
        io: { out: () => undefined, err: (text) => (log += text) },
        env: { SCN_AGENT_ALLOW_TEST_DESTINATIONS: '192.0.2.1' },
        coreFactory: async (_config, testDestinations) => {
          seen.push([...testDestinations]);
          return null;
        },
        stopSignal: Promise.resolve('SIGTERM'),
      },
    );
    expect(seen).toEqual([['198.51.100.7/32', '203.0.113.0/24']]);
    expect(log).toContain('tunnels may reach 198.51.100.7/32, 203.0.113.0/24');
  });

  it('should put the CIDRs into the core options, and nothing without them', () => {
    const config = agentConfigSchema.parse(sampleConfig());
    expect(proxyCoreOptions(config, ['198.51.100.7/32']).allowedDestinationCidrs).toEqual([
      '198.51.100.7/32',
    ]);
    expect(proxyCoreOptions(config)).not.toHaveProperty('allowedDestinationCidrs');
  });
});

describe('run, stopped by a signal', () => {
  it('should keep catching SIGTERM while it stops, and let go once stopped', async () => {
    const before = process.listenerCount('SIGTERM');
    let log = '';
    let duringStop = -1;
    const io = {
      out: () => undefined,
      err: (text: string) => {
        log += text;
        if (text.includes('running; reporting'))
          setImmediate(() => process.emit('SIGTERM', 'SIGTERM'));
        if (text.includes('SIGTERM received, stopping')) {
          duringStop = process.listenerCount('SIGTERM');
          // A second signal now (a supervisor and a terminal both sending one) must be caught.
          process.emit('SIGTERM', 'SIGTERM');
        }
      },
    };
    await run({ config: await configFile() }, { io, coreFactory: async () => null });
    expect(duringStop).toBe(before + 1);
    expect(log).toContain('SIGTERM received again; still stopping the proxy core');
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
