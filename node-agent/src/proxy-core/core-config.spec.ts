import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  API_TAG,
  buildCoreConfig,
  type CoreConfigInput,
  normalizeClientUuids,
  VLESS_INBOUND_TAG,
  writeCoreConfig,
} from './core-config';
import { ProxyCoreException } from './proxy-core.exception';

const UUID_A = '6f1c1f1e-2a51-4f34-9a4b-0c1d2e3f4a5b';
const UUID_B = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function input(overrides: Partial<CoreConfigInput> = {}): CoreConfigInput {
  return {
    kind: 'v2ray',
    apiPort: 10085,
    allowedUuids: [UUID_A, UUID_B],
    inbound: { port: 443, security: 'none', network: 'tcp' },
    ...overrides,
  };
}

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ProxyCoreException) return error.code;
    throw error;
  }
  return undefined;
}

describe('buildCoreConfig', () => {
  it('should list every allowed uuid as a VLESS client keyed by email when built', () => {
    const config = buildCoreConfig(input({ allowedUuids: [UUID_A.toUpperCase(), UUID_B, UUID_A] }));
    const vless = config.inbounds.find((inbound) => inbound.tag === VLESS_INBOUND_TAG)!;

    expect(vless.protocol).toBe('vless');
    expect(vless.port).toBe(443);
    expect(vless.listen).toBe('0.0.0.0');
    expect(vless.settings).toEqual({
      decryption: 'none',
      clients: [
        { id: UUID_B, email: UUID_B, level: 0 },
        { id: UUID_A, email: UUID_A, level: 0 },
      ],
    });
    expect(vless.streamSettings).toEqual({ network: 'tcp', security: 'none' });
  });

  it('should serve an empty client list when no uuid is allowed', () => {
    const config = buildCoreConfig(input({ allowedUuids: [] }));
    expect(config.inbounds[0]!.settings).toEqual({ decryption: 'none', clients: [] });
  });

  it('should expose HandlerService and StatsService on loopback only when built', () => {
    const config = buildCoreConfig(input({ apiPort: 18080 }));
    const api = config.inbounds.find((inbound) => inbound.tag === API_TAG)!;

    expect(api).toEqual({
      tag: 'api',
      listen: '127.0.0.1',
      port: 18080,
      protocol: 'dokodemo-door',
      settings: { address: '127.0.0.1' },
    });
    expect(config.api).toEqual({ tag: 'api', services: ['HandlerService', 'StatsService'] });
    expect(config.routing.rules[0]).toEqual({
      type: 'field',
      inboundTag: ['api'],
      outboundTag: 'api',
    });
  });

  it('should enable per-user uplink and downlink stats when built', () => {
    const config = buildCoreConfig(input());
    expect(config.stats).toEqual({});
    expect(config.policy.levels['0']).toEqual({ statsUserUplink: true, statsUserDownlink: true });
    expect(config.outbounds[0]).toEqual({ tag: 'direct', protocol: 'freedom' });
  });

  it('should block clients from the API port and private networks when built', () => {
    const rules = buildCoreConfig(input({ apiPort: 18080 })).routing.rules;
    expect(rules).toContainEqual({
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: ['127.0.0.0/8', '::1/128'],
      port: '18080',
      outboundTag: 'blocked',
    });
    expect(rules.some((rule) => rule.ip?.includes('192.168.0.0/16'))).toBe(true);
  });

  it('should still block the API port when private destinations are allowed', () => {
    const rules = buildCoreConfig(input({ allowPrivateDestinations: true })).routing.rules;
    expect(rules.filter((rule) => rule.outboundTag === 'blocked')).toEqual([
      expect.objectContaining({ port: '10085' }),
    ]);
  });

  it('should reference the certificate files when security is tls', () => {
    const config = buildCoreConfig(
      input({
        inbound: {
          port: 443,
          security: 'tls',
          network: 'tcp',
          sni: 'node.example.com',
          certificateFile: '/etc/scn/cert.pem',
          keyFile: '/etc/scn/key.pem',
        },
      }),
    );
    expect(config.inbounds[0]!.streamSettings).toEqual({
      network: 'tcp',
      security: 'tls',
      tlsSettings: {
        serverName: 'node.example.com',
        certificates: [{ certificateFile: '/etc/scn/cert.pem', keyFile: '/etc/scn/key.pem' }],
      },
    });
  });

  it('should refuse tls when the certificate files are missing', () => {
    const run = () =>
      buildCoreConfig(input({ inbound: { port: 443, security: 'tls', network: 'tcp' } }));
    expect(errorCode(run)).toBe('tls_needs_certificate');
  });

  it('should refuse REALITY when the core is v2ray', () => {
    const reality = {
      port: 443,
      security: 'reality',
      network: 'tcp',
      sni: 'www.example.com',
      realityPrivateKey: 'cHJpdmF0ZS1rZXk',
    } as const;
    const run = () => buildCoreConfig(input({ kind: 'v2ray', inbound: reality }));
    expect(errorCode(run)).toBe('reality_needs_xray');
    expect(run).toThrow(/unencrypted/);
  });

  it('should refuse REALITY when the private key is missing', () => {
    const run = () =>
      buildCoreConfig(
        input({
          kind: 'xray',
          inbound: { port: 443, security: 'reality', network: 'tcp', sni: 'www.example.com' },
        }),
      );
    expect(errorCode(run)).toBe('reality_needs_private_key');
  });

  it('should build realitySettings when the core is xray', () => {
    const config = buildCoreConfig(
      input({
        kind: 'xray',
        inbound: {
          port: 443,
          security: 'reality',
          network: 'tcp',
          sni: 'www.example.com',
          sid: 'ab12',
          flow: 'xtls-rprx-vision',
          realityPrivateKey: 'cHJpdmF0ZS1rZXk',
        },
      }),
    );
    const vless = config.inbounds[0]!;
    expect(vless.streamSettings).toEqual({
      network: 'tcp',
      security: 'reality',
      realitySettings: {
        dest: 'www.example.com:443',
        serverNames: ['www.example.com'],
        privateKey: 'cHJpdmF0ZS1rZXk',
        shortIds: ['ab12'],
      },
    });
    expect(vless.settings.clients).toContainEqual({
      id: UUID_A,
      email: UUID_A,
      level: 0,
      flow: 'xtls-rprx-vision',
    });
  });
});

describe('normalizeClientUuids', () => {
  it('should refuse a malformed uuid when normalizing', () => {
    expect(errorCode(() => normalizeClientUuids([UUID_A, 'not-a-uuid']))).toBe(
      'invalid_client_uuid',
    );
  });
});

describe('writeCoreConfig', () => {
  let workDir: string;

  beforeEach(async () => {
    workDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'scn-core-config-')), 'core');
  });

  afterEach(async () => {
    await rm(path.dirname(workDir), { recursive: true, force: true });
  });

  it('should write the config with mode 0600 in a 0700 folder when called', async () => {
    const file = await writeCoreConfig(workDir, buildCoreConfig(input()));

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(workDir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(buildCoreConfig(input()));
  });

  it('should leave mode 0600 when the file existed with a wider mode', async () => {
    const file = await writeCoreConfig(workDir, buildCoreConfig(input()));
    await chmod(file, 0o644);

    await writeCoreConfig(workDir, buildCoreConfig(input({ allowedUuids: [] })));

    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
