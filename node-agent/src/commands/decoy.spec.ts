import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readAgentConfig, writeAgentConfig } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { AgentError } from '../errors';
import { decoy } from './decoy';

describe('scn-agent decoy', () => {
  let dir: string;
  let file: string;
  const out: string[] = [];
  const io = { out: (text: string) => void out.push(text), err: () => undefined };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'scn-decoy-'));
    file = path.join(dir, 'config.json');
    out.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const tlsTcp = {
    security: 'tls' as const,
    network: 'tcp' as const,
    certificateFile: '/c.pem',
    keyFile: '/k.pem',
  };

  it('should keep the upstream in the config and go back to the built-in decoy when asked', async () => {
    await writeAgentConfig(file, sampleConfig({ inbound: tlsTcp, decoy: { port: 41234 } }));
    await decoy({ config: file, upstream: 'http://127.0.0.1:8080' }, io);
    expect((await readAgentConfig(file)).decoy).toEqual({
      upstream: '127.0.0.1:8080',
      port: 41234,
    });
    expect(out.join('')).toContain(
      "probers of the TLS inbound get the operator's site at 127.0.0.1:8080",
    );
    await decoy({ config: file, builtin: true }, io);
    expect((await readAgentConfig(file)).decoy).toEqual({ port: 41234 });
  });

  it('should refuse an HTTPS upstream with a usage error', async () => {
    await writeAgentConfig(file, sampleConfig({ inbound: tlsTcp }));
    await expect(decoy({ config: file, upstream: 'https://site.example' }, io)).rejects.toThrow(
      /--upstream: .*HTTPS server cannot read/,
    );
  });

  it("should set a REALITY node's target and its sni, with Xray's warning for a blocked name", async () => {
    await writeAgentConfig(
      file,
      sampleConfig({
        core: { kind: 'xray', binary: '/x', apiPort: 1, workDir: '/tmp/x' },
        inbound: {
          security: 'reality',
          network: 'tcp',
          sni: 'a.example',
          realityDest: 'a.example:443',
        },
      }),
    );
    await decoy({ config: file, realityDest: 'www.apple.com:443' }, io);
    const config = await readAgentConfig(file);
    expect(config.inbound).toMatchObject({
      realityDest: 'www.apple.com:443',
      sni: 'www.apple.com',
    });
    expect(out.join('')).toContain('Warning: Xray warns that "apple" targets');
  });

  it('should refuse --reality-dest when the node serves TLS', async () => {
    await writeAgentConfig(file, sampleConfig({ inbound: tlsTcp }));
    await expect(
      decoy({ config: file, realityDest: 'www.debian.org:443' }, io),
    ).rejects.toBeInstanceOf(AgentError);
  });
});
