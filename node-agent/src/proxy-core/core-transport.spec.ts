import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { AgentInbound } from '../config/agent-config';
import { buildCoreConfig, VLESS_INBOUND_TAG, writeCoreConfig } from './core-config';
import { coreInboundSettings } from './inbound-plan';
import { createInbound, DEFAULT_REALITY_DEST, VISION_FLOW } from './inbound-setup';
import { isRealityKey, isRealityShortId, realityPublicKey } from './reality-keys';

/**
 * The core config of every transport: the v2ray ones go through the real
 * `v2ray -test -config` (Debian's v2ray 4.34); the Xray ones (REALITY) through a schema written
 * from Xray's documentation (https://xtls.github.io/config/transport.html#realityobject and
 * .../inbounds/vless.html), since Xray cannot be installed on these machines.
 */
const V2RAY = '/usr/bin/v2ray';
const UUID = '6f1c1f1e-2a51-4f34-9a4b-0c1d2e3f4a5b';
const describeV2ray = existsSync(V2RAY) ? describe : describe.skip;
if (!existsSync(V2RAY)) console.warn(`${V2RAY} missing: v2ray -test checks skipped`);

function v2rayTest(file: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(V2RAY, ['-test', '-config', file], { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ ok: error === null, output: `${stdout}${stderr}` }),
    );
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'scn-transport-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function v2rayConfigFile(inbound: AgentInbound, name: string): Promise<string> {
  const config = buildCoreConfig({
    kind: 'v2ray',
    inbound: coreInboundSettings(inbound, 8443),
    apiPort: 10085,
    allowedUuids: [UUID],
  });
  return writeCoreConfig(path.join(dir, name), config);
}

describeV2ray('v2ray 4.34 accepts the TLS inbound of every transport', () => {
  it.each(['tcp', 'ws'] as const)('should pass v2ray -test with tls/%s', async (network) => {
    const inbound = await createInbound({
      kind: 'v2ray',
      publicHost: '203.0.113.7',
      tlsDir: path.join(dir, `tls-${network}`),
      network,
    });
    const file = await v2rayConfigFile(inbound, `v2ray-${network}`);
    const result = await v2rayTest(file);
    expect(result).toEqual({ ok: true, output: expect.stringContaining('Configuration OK') });

    const stream = JSON.parse(await readFile(file, 'utf8')) as {
      inbounds: Array<Record<string, unknown>>;
    };
    const vless = stream.inbounds.find((i) => i.tag === VLESS_INBOUND_TAG)!;
    const settings = vless.streamSettings as Record<string, unknown>;
    expect(settings).toMatchObject({ network, security: 'tls' });
    if (network === 'ws') {
      expect(settings.wsSettings).toEqual({ path: inbound.path });
      expect(inbound.path).toMatch(/^\/[0-9a-f]{16}$/);
    } else expect(settings.wsSettings).toBeUndefined();
    expect(settings.grpcSettings).toBeUndefined();
    // v2ray 4.34 has no vision flow: none on any v2ray transport.
    expect(inbound.flow).toBeUndefined();
    expect((await stat(inbound.keyFile!)).mode & 0o777).toBe(0o600);
  });

  it('should fail v2ray -test when the certificate file is missing (the check can fail)', async () => {
    const inbound = await createInbound({
      kind: 'v2ray',
      publicHost: '203.0.113.7',
      tlsDir: path.join(dir, 'tls-bad'),
    });
    await rm(inbound.certificateFile!);
    const result = await v2rayTest(await v2rayConfigFile(inbound, 'v2ray-bad'));
    expect(result).toEqual({ ok: false, output: expect.stringContaining('certificate.pem') });
  });

  it('should be refused by v2ray 4.34 with network grpc, which is why the agent never asks it', async () => {
    const inbound = await createInbound({
      kind: 'xray',
      security: 'tls',
      network: 'grpc',
      publicHost: '203.0.113.7',
      tlsDir: path.join(dir, 'tls-grpc'),
    });
    expect(inbound.serviceName).toMatch(/^[0-9a-f]{16}$/);
    const result = await v2rayTest(await v2rayConfigFile(inbound, 'v2ray-grpc'));
    expect(result).toEqual({
      ok: false,
      output: expect.stringContaining('unknown transport protocol: grpc'),
    });
    await expect(
      createInbound({ kind: 'v2ray', network: 'grpc', publicHost: '203.0.113.7', tlsDir: dir }),
    ).rejects.toThrow(/no gRPC transport/);
  });
});

/** Xray's REALITY inbound as its documentation describes it (server side). */
function isXrayVersion(text: string): boolean {
  const parts = text.split('.');
  return parts.length <= 3 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256);
}
const realitySettingsSchema = z
  .object({
    show: z.boolean(),
    dest: z.string().regex(/^[^\s:]+:\d{1,5}$/),
    xver: z.literal(0),
    serverNames: z.array(z.string().min(1)).min(1),
    privateKey: z.string().refine(isRealityKey, 'a 32-byte key, base64 raw URL'),
    // Xray's parser (infra/conf/transport_security.go): up to three dot-separated bytes; empty
    // minClientVer is 26.3.27 since v26.7.11, so it must be given; empty maxClientVer is no bound.
    minClientVer: z.string().refine(isXrayVersion, 'x.y.z, each below 256'),
    maxClientVer: z.string().refine((v) => v === '' || isXrayVersion(v), 'empty or x.y.z'),
    shortIds: z.array(z.string().refine(isRealityShortId, 'hex, even length, <= 16')).min(1),
  })
  .strict();
const xrayVlessInboundSchema = z.object({
  protocol: z.literal('vless'),
  port: z.number().int().min(1).max(65535),
  settings: z
    .object({
      decryption: z.literal('none'),
      clients: z.array(
        z
          .object({
            id: z.string().uuid(),
            email: z.string(),
            level: z.number(),
            flow: z.enum(['', VISION_FLOW]).optional(),
          })
          .strict(),
      ),
    })
    .strict(),
  streamSettings: z.discriminatedUnion('network', [
    z
      .object({
        network: z.literal('tcp'),
        security: z.literal('reality'),
        realitySettings: realitySettingsSchema,
      })
      .strict(),
    z
      .object({
        network: z.literal('grpc'),
        security: z.literal('reality'),
        realitySettings: realitySettingsSchema,
        grpcSettings: z.object({ serviceName: z.string().min(1) }).strict(),
      })
      .strict(),
  ]),
});

describe('Xray REALITY inbound (schema from Xray documentation; Xray not run here)', () => {
  it.each(['tcp', 'grpc'] as const)('should match the schema with reality/%s', async (network) => {
    const inbound = await createInbound({
      kind: 'xray',
      publicHost: '203.0.113.7',
      tlsDir: path.join(dir, 'unused'),
      network,
    });
    const config = buildCoreConfig({
      kind: 'xray',
      inbound: coreInboundSettings(inbound, 443),
      apiPort: 10085,
      allowedUuids: [UUID],
    });
    const vless = config.inbounds.find((i) => i.tag === VLESS_INBOUND_TAG)!;
    const parsed = xrayVlessInboundSchema.parse(vless);
    const reality = parsed.streamSettings.realitySettings;
    expect(reality.dest).toBe(DEFAULT_REALITY_DEST);
    expect(reality.serverNames).toEqual([DEFAULT_REALITY_DEST.replace(/:443$/, '')]);
    // The key pair: the reported pbk is the public half of the configured private key.
    expect(realityPublicKey(reality.privateKey)).toBe(inbound.pbk);
    expect(reality.shortIds).toEqual([inbound.sid]);
    expect(inbound.sid).toMatch(/^[0-9a-f]{16}$/);
    expect(inbound.fp).toBe('chrome');
    // Vision only over tcp (Xray refuses the flow on grpc).
    expect(parsed.settings.clients[0]!.flow).toBe(network === 'tcp' ? VISION_FLOW : undefined);
    // No TLS material for REALITY.
    expect(inbound.certificateFile).toBeUndefined();
  });

  it.each([
    ['tcp', { network: 'tcp' }, VISION_FLOW],
    [
      'ws',
      { network: 'ws', wsSettings: { path: expect.stringMatching(/^\/[0-9a-f]{16}$/) } },
      undefined,
    ],
    [
      'grpc',
      { network: 'grpc', grpcSettings: { serviceName: expect.stringMatching(/^[0-9a-f]{16}$/) } },
      undefined,
    ],
  ] as const)(
    'should give Xray TLS over %s its transport settings',
    async (network, expected, flow) => {
      const inbound = await createInbound({
        kind: 'xray',
        security: 'tls',
        network,
        publicHost: 'node.example.net',
        tlsDir: path.join(dir, `xray-tls-${network}`),
      });
      const config = buildCoreConfig({
        kind: 'xray',
        inbound: coreInboundSettings(inbound, 443),
        apiPort: 10085,
        allowedUuids: [UUID],
      });
      const vless = config.inbounds.find((i) => i.tag === VLESS_INBOUND_TAG)!;
      expect(vless.streamSettings).toMatchObject({ ...expected, security: 'tls' });
      expect(vless.streamSettings!.tlsSettings).toMatchObject({
        serverName: 'node.example.net',
        minVersion: '1.2',
        certificates: [
          {
            certificateFile: inbound.certificateFile,
            keyFile: inbound.keyFile,
            ocspStapling: 3600,
          },
        ],
        ...(network === 'grpc' ? { alpn: ['h2'] } : network === 'ws' ? { alpn: ['http/1.1'] } : {}),
      });
      expect(inbound.flow).toBe(flow);
    },
  );

  it('should take the operator target and server name', async () => {
    const inbound = await createInbound({
      kind: 'xray',
      publicHost: '203.0.113.7',
      tlsDir: path.join(dir, 'unused'),
      realityDest: 'www.example.org:8443',
      realitySni: 'cdn.example.org',
    });
    expect(inbound).toMatchObject({
      realityDest: 'www.example.org:8443',
      sni: 'cdn.example.org',
      flow: VISION_FLOW,
    });
  });

  it('should refuse REALITY over ws and REALITY on v2ray', async () => {
    const base = { publicHost: '203.0.113.7', tlsDir: path.join(dir, 'unused') };
    await expect(
      createInbound({ ...base, kind: 'xray', security: 'reality', network: 'ws' }),
    ).rejects.toThrow(/tcp or grpc/);
    await expect(createInbound({ ...base, kind: 'v2ray', security: 'reality' })).rejects.toThrow(
      /REALITY needs Xray/,
    );
  });

  it('should fail the schema when a field is wrong (the check can fail)', async () => {
    const inbound = await createInbound({
      kind: 'xray',
      publicHost: '203.0.113.7',
      tlsDir: path.join(dir, 'unused'),
    });
    const config = buildCoreConfig({
      kind: 'xray',
      inbound: coreInboundSettings({ ...inbound, sid: 'xyz' }, 443),
      apiPort: 10085,
      allowedUuids: [UUID],
    });
    expect(() => xrayVlessInboundSchema.parse(config.inbounds[0])).toThrow();
  });
});
