import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseCoreVersion, V2rayCore } from './v2ray-core';

const UUID = '6f1c1f1e-2a51-4f34-9a4b-0c1d2e3f4a5b';

describe('parseCoreVersion', () => {
  it('should read the version when the output is from v2ray -version', () => {
    const output = 'V2Ray 4.34.0 (user) 20230518-074445 (go1.19.8 linux/amd64)\nA unified platform';
    expect(parseCoreVersion(output)).toBe('4.34.0');
  });

  it('should read the version when the output is from xray version', () => {
    const output = 'Xray 1.8.24 (Xray, Penetrates Everything.) 8e6a7a7 (go1.22.5 linux/amd64)';
    expect(parseCoreVersion(output)).toBe('1.8.24');
  });

  it('should return an empty string when the output names no core', () => {
    expect(parseCoreVersion('command not found')).toBe('');
  });
});

describe('V2rayCore', () => {
  let workDir: string;

  beforeEach(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'scn-v2ray-core-'));
  });

  afterEach(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('should report absent and carry on when the binary does not exist', async () => {
    const core = new V2rayCore({
      kind: 'xray',
      binary: path.join(workDir, 'no-such-xray'),
      workDir,
      apiPort: 1,
      inbound: { port: 2, security: 'none', network: 'tcp' },
    });

    await core.start([UUID]);
    await core.reconcile([]);

    expect(core.status()).toEqual({ state: 'absent', kind: 'xray', version: '', restartCount: 0 });
    expect(await core.traffic()).toEqual([]);
    await core.stop();
    expect(core.status().state).toBe('absent');
  });

  it('should refuse to start when REALITY is asked of v2ray', async () => {
    const core = new V2rayCore({
      kind: 'v2ray',
      binary: process.execPath,
      workDir,
      apiPort: 1,
      inbound: {
        port: 2,
        security: 'reality',
        network: 'tcp',
        sni: 'a.example',
        realityPrivateKey: 'k',
      },
    });

    await expect(core.start([UUID])).rejects.toThrow(/REALITY needs the Xray core/);
    expect(core.status().state).toBe('failed');
  });
});
