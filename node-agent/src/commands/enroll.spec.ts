import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentError } from '../errors';
import { buildProgram } from '../program';
import { enroll, type EnrollFlags } from './enroll';

const TOKEN = 'a'.repeat(43);
const io = { out: () => undefined, err: () => undefined };
const strongHardware = async () => ({
  os: 'Debian',
  osRelease: '6.1',
  arch: 'x64',
  cpuCores: 2,
  cpuModel: 'test',
  cpuGhz: 2,
  ramBytes: 4 * 1024 ** 3,
  diskBytes: 10 * 1024 ** 3,
});

async function enrollError(flags: EnrollFlags, hardware = strongHardware): Promise<AgentError> {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-enroll-'));
  try {
    await enroll(
      { config: path.join(dir, 'config.json'), publicHost: '203.0.113.7', ...flags },
      { io, hardware },
    );
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected enroll to fail');
}

describe('enroll flags', () => {
  it('should exit 2 and say host:port when --server is not host:port', async () => {
    const error = await enrollError({
      server: 'https://cp.example.com',
      token: TOKEN,
      tier: 'tier2',
    });
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^--server: must be host:port/);
  });

  it('should exit 2 when --tier is unknown', async () => {
    const error = await enrollError({
      server: 'cp.example.com:50051',
      token: TOKEN,
      tier: 'tier7',
    });
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('--tier: must be tier1, tier2, tier3 or tier4');
  });

  it('should exit 2 when --token is missing', async () => {
    const error = await enrollError({ server: 'cp.example.com:50051', tier: 'tier2' });
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^--token: is required/);
  });

  it('should exit 2 when --public-port is not a port', async () => {
    const error = await enrollError({
      server: 'cp.example.com:50051',
      token: TOKEN,
      tier: 'tier2',
      publicPort: '70000',
    });
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('--public-port: must be 1-65535');
  });

  it('should refuse with the reason when the hardware is below the tier', async () => {
    const weak = async () => ({ ...(await strongHardware()), cpuCores: 1 });
    const error = await enrollError({ server: '127.0.0.1:1', token: TOKEN, tier: 'tier2' }, weak);
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('does not meet tier2');
  });

  it('should parse the flags through the commander program (the default tier is tier2)', async () => {
    const program = buildProgram(io);
    await expect(
      program.parseAsync(['node', 'scn-agent', 'enroll', '--server', 'nope', '--token', TOKEN]),
    ).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/^--server/) });
  });
});
