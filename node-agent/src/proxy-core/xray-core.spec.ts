import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { XrayCore } from './xray-core';

const UUID = '6f1c1f1e-2a51-4f34-9a4b-0c1d2e3f4a5b';

describe('XrayCore', () => {
  let workDir: string;

  beforeEach(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'scn-xray-core-'));
  });

  afterEach(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('should report absent and carry on when the binary does not exist', async () => {
    const core = new XrayCore({
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
    const core = new XrayCore({
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
