import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentError } from '../errors';
import { readAgentConfig, resolveConfigPath, writeAgentConfig } from './agent-config';
import { sampleConfig } from './agent-config.fixture';

async function tempFile(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'scn-agent-config-')), 'sub', 'config.json');
}

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('agent config', () => {
  it('should write mode 0600 atomically and read it back when valid', async () => {
    const file = await tempFile();
    await writeAgentConfig(file, sampleConfig());
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const config = await readAgentConfig(file);
    expect(config.nodeId).toBe(sampleConfig().nodeId);
    expect(config.appliedClientSetVersion).toBe('0');
    expect(config.inbound).toEqual({ security: 'none', network: 'tcp', planRevision: '0' });
  });

  it('should refuse a file readable by group or others and say chmod 600', async () => {
    const file = await tempFile();
    await writeAgentConfig(file, sampleConfig());
    await chmod(file, 0o644);
    const error = await failure(readAgentConfig(file));
    expect(error.exitCode).toBe(78);
    expect(error.message).toContain(file);
    expect(error.hint).toBe(`chmod 600 ${file}`);
  });

  it('should name the file and the field when a field is invalid', async () => {
    const file = await tempFile();
    await writeAgentConfig(file, sampleConfig());
    const json = JSON.parse(await readFile(file, 'utf8'));
    json.core.apiPort = 'ten';
    await writeFile(file, JSON.stringify(json));
    const error = await failure(readAgentConfig(file));
    expect(error.exitCode).toBe(78);
    expect(error.message).toContain(file);
    expect(error.message).toContain('core.apiPort');
  });

  it('should give exit code 78 and an enroll hint when the file is missing or not JSON', async () => {
    const file = await tempFile();
    const missing = await failure(readAgentConfig(file));
    expect(missing.exitCode).toBe(78);
    expect(missing.hint).toContain('scn-agent enroll');
    await writeAgentConfig(file, sampleConfig());
    await writeFile(file, '{ nope');
    const broken = await failure(readAgentConfig(file));
    expect(broken.message).toMatch(/not valid JSON/);
  });

  it('should take --config over SCN_AGENT_CONFIG over the default', () => {
    expect(resolveConfigPath('/a.json', { SCN_AGENT_CONFIG: '/b.json' })).toBe('/a.json');
    expect(resolveConfigPath(undefined, { SCN_AGENT_CONFIG: '/b.json' })).toBe('/b.json');
    expect(resolveConfigPath(undefined, {})).toBe('/etc/scn-agent/config.json');
  });
});
