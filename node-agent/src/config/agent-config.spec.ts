import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentError } from '../errors';
import {
  AgentConfigStore,
  readAgentConfig,
  resolveConfigPath,
  writeAgentConfig,
} from './agent-config';
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

  it("should read one control plane address or its replicas' list, and refuse a bad list", async () => {
    const file = await tempFile();
    for (const controlPlane of [
      'cp.example.com:50051',
      'cp-a.example.com:50051,[2001:db8::1]:50051',
    ]) {
      await writeAgentConfig(file, { ...sampleConfig(), controlPlane });
      expect((await readAgentConfig(file)).controlPlane).toBe(controlPlane);
    }
    const json = JSON.parse(await readFile(file, 'utf8'));
    json.controlPlane = 'cp-a.example.com:50051;cp-b.example.com';
    await writeFile(file, JSON.stringify(json));
    const error = await failure(readAgentConfig(file));
    expect(error.message).toContain('field "controlPlane": must be host:port, or several');
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

describe('AgentConfigStore', () => {
  async function storeWithFile() {
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-store-'));
    const file = path.join(dir, 'config.json');
    await writeAgentConfig(file, sampleConfig());
    return { file, store: new AgentConfigStore(file, await readAgentConfig(file)) };
  }
  const report = (at: string) => ({
    at,
    accepted: true,
    reliability: 90,
    available: true,
    error: null,
  });

  it("should keep an operator's edit made while the daemon runs, and write its own change on top", async () => {
    const { file, store } = await storeWithFile();
    await store.update((config) => ({ ...config, lastReport: report('2026-11-28T04:00:00.000Z') }));
    // `scn-agent decoy --upstream ...` while the daemon runs:
    const edited = await readAgentConfig(file);
    await writeAgentConfig(file, { ...edited, decoy: { upstream: '127.0.0.1:8080' } });
    await store.update((config) => ({ ...config, lastReport: report('2026-11-28T04:01:00.000Z') }));
    const onDisk = await readAgentConfig(file);
    expect(onDisk.decoy).toEqual({ upstream: '127.0.0.1:8080' });
    expect(onDisk.lastReport?.at).toBe('2026-11-28T04:01:00.000Z');
    expect(store.current.decoy).toEqual({ upstream: '127.0.0.1:8080' });
  });

  it('should write over a file broken by hand', async () => {
    const { file, store } = await storeWithFile();
    await writeFile(file, '{ "half": ', { mode: 0o600 });
    await store.update((config) => ({ ...config, lastReport: report('2026-11-28T04:02:00.000Z') }));
    expect((await readAgentConfig(file)).lastReport?.at).toBe('2026-11-28T04:02:00.000Z');
  });
});
