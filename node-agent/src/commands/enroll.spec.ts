import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type AgentServiceHandlers,
  type EnrollRequest__Output,
  type EnrollResponse,
  GRPC_LOADER_OPTIONS,
  SERVER_SETTINGS_MESSAGES,
} from '@scn/proto';
import { readAgentConfig } from '../config/agent-config';
import { AgentError } from '../errors';
import { isRealityKey, realityPublicKey } from '../proxy-core/reality-keys';
import { DEFAULT_REALITY_DEST } from '../proxy-core/reality-targets';
import { buildProgram } from '../program';
import { enroll, type EnrollFlags, enrollFlagsSchema } from './enroll';
import type { PortAvailability } from './enroll-port';

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

/** Port 443 as free, without binding it on this machine (enroll-port.ts probes the real one). */
const port443Free = () => Promise.resolve<PortAvailability>('free');

async function enrollError(flags: EnrollFlags, hardware = strongHardware): Promise<AgentError> {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-enroll-'));
  try {
    await enroll(
      { config: path.join(dir, 'config.json'), publicHost: '203.0.113.7', ...flags },
      { io, hardware, probePort: port443Free },
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

  it('should exit 2 when --public-host is not a host (an unbalanced IPv6 bracket)', async () => {
    const error = await enrollError({
      server: 'cp.example.com:50051',
      token: TOKEN,
      tier: 'tier2',
      publicHost: '[2001:db8::1',
    });
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      '--public-host: must be a host name, an IPv4 or an IPv6 address (e.g. 2001:db8::1)',
    );
  });

  it('should take --public-host as an IPv6 address with or without brackets, canonically', () => {
    const flags = { server: 'cp.example.com:50051', token: TOKEN, tier: 'tier2' };
    for (const publicHost of ['[2001:DB8:0::1]', '2001:db8::1']) {
      expect(enrollFlagsSchema.parse({ ...flags, publicHost }).publicHost).toBe('2001:db8::1');
    }
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

/** A bare AgentService on loopback that answers Enroll and keeps what it was sent. */
async function fakeControlPlane(inboundPlan?: EnrollResponse['inboundPlan']): Promise<{
  target: string;
  requests: EnrollRequest__Output[];
  close(): void;
}> {
  const proto = grpc.loadPackageDefinition(
    protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
  ) as unknown as AgentProtoGrpcType;
  const requests: EnrollRequest__Output[] = [];
  const server = new grpc.Server();
  const handlers: AgentServiceHandlers = {
    Enroll: (call, callback) => {
      requests.push(call.request);
      callback(null, {
        nodeId: '3f6c1a52-8d1e-4c59-9a0b-6b1f2f0c7e11',
        nodeSecret: 'secret',
        reportIntervalMs: 60_000,
        tier: call.request.tier,
        inboundPlan,
      });
    },
    Report: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED }),
    ReportStream: (call) => call.emit('error', { code: grpc.status.UNIMPLEMENTED }),
    WatchClients: (call) => call.end(),
    EnrollProbe: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED }),
    ProbeTasks: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED }),
    ReportProbe: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED }),
  };
  server.addService(proto.scn.agent.v1.AgentService.service, handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { target: `127.0.0.1:${port}`, requests, close: () => server.forceShutdown() };
}

describe('enroll --country / --location', () => {
  it.each([
    [{ country: 'Germany' }, `--country: ${SERVER_SETTINGS_MESSAGES.countryInvalid}`],
    [{ country: 'XK' }, `--country: ${SERVER_SETTINGS_MESSAGES.countryInvalid}`],
    [{ location: 'x'.repeat(101) }, `--location: ${SERVER_SETTINGS_MESSAGES.locationTooLong}`],
    [{ location: 'line one\nline two' }, `--location: ${SERVER_SETTINGS_MESSAGES.locationInvalid}`],
  ])('should exit 2 before contacting anyone when given %j', async (flags, message) => {
    const error = await enrollError({
      server: '127.0.0.1:1',
      token: TOKEN,
      tier: 'tier2',
      ...flags,
    });
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(message);
  });

  it('should send the upper-cased country and the trimmed location with the enrollment', async () => {
    const controlPlane = await fakeControlPlane();
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-enroll-'));
    let out = '';
    try {
      const program = buildProgram({ out: (text) => (out += text), err: () => undefined });
      // prettier-ignore
      await program.parseAsync([
        'node', 'scn-agent', 'enroll', '--server', controlPlane.target, '--token', TOKEN,
        '--public-host', '203.0.113.7', '--config', path.join(dir, 'config.json'),
        '--country', 'de', '--location', '  Frankfurt, Hetzner FSN1 ', '--public-port', '24443',
      ]);
      await enroll(
        {
          server: controlPlane.target,
          token: TOKEN,
          tier: 'tier2',
          publicHost: '203.0.113.7',
          config: path.join(dir, 'again.json'),
        },
        { io, hardware: strongHardware, probePort: port443Free },
      );
    } finally {
      controlPlane.close();
    }
    expect(controlPlane.requests.map(({ country, location }) => ({ country, location }))).toEqual([
      { country: 'DE', location: 'Frankfurt, Hetzner FSN1' },
      // Without the flags: proto3's empty strings, "not given".
      { country: '', location: '' },
    ]);
    expect(out).toContain('Frankfurt, Hetzner FSN1, DE');
  });
});

describe('enroll with several control plane addresses', () => {
  it('should enroll through the first replica that answers and keep every address', async () => {
    const controlPlane = await fakeControlPlane();
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-enroll-replicas-'));
    const configPath = path.join(dir, 'config.json');
    try {
      await enroll(
        {
          // The first replica refuses connections (nothing listens on port 1).
          server: ` 127.0.0.1:1 , ${controlPlane.target}`,
          token: TOKEN,
          tier: 'tier2',
          publicHost: '203.0.113.7',
          config: configPath,
        },
        { io, hardware: strongHardware, probePort: port443Free },
      );
    } finally {
      controlPlane.close();
    }
    expect(controlPlane.requests).toHaveLength(1);
    const config = await readAgentConfig(configPath);
    expect(config.controlPlane).toBe(`127.0.0.1:1,${controlPlane.target}`);
    expect(config.tls).toBe(false);
  });

  it('should exit 2 when one address of the list is not host:port', async () => {
    const error = await enrollError({ server: '127.0.0.1:1,cp', token: TOKEN, tier: 'tier2' });
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^--server: must be host:port.*or several separated by commas/);
  });
});

describe('enroll: the secure inbound', () => {
  async function enrollWith(
    flags: EnrollFlags,
    plan?: EnrollResponse['inboundPlan'],
    /** What this machine's port 443 is (enroll-port.ts probes the real one). */
    port443: PortAvailability = 'free',
  ) {
    const controlPlane = await fakeControlPlane(plan);
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-enroll-inbound-'));
    const configPath = path.join(dir, 'etc', 'config.json');
    let err = '';
    let out = '';
    try {
      await enroll(
        {
          server: controlPlane.target,
          token: TOKEN,
          tier: 'tier2',
          publicHost: '203.0.113.7',
          config: configPath,
          ...flags,
        },
        {
          io: { out: (t) => (out += t), err: (t) => (err += t) },
          hardware: strongHardware,
          probePort: () => Promise.resolve(port443),
        },
      );
    } finally {
      controlPlane.close();
    }
    return {
      request: controlPlane.requests[0]!,
      config: await readAgentConfig(configPath),
      configPath,
      err,
      out,
    };
  }

  it('should set up REALITY + vision with Xray by default and ask for 443 when free', async () => {
    const { request, config, out } = await enrollWith({});
    expect(request).toMatchObject({ requestedPort: 443, core: 'xray' });
    expect(config.publicPort).toBe(443);
    expect(config.inbound).toMatchObject({
      security: 'reality',
      network: 'tcp',
      flow: 'xtls-rprx-vision',
      fp: 'chrome',
      sni: DEFAULT_REALITY_DEST.replace(/:443$/, ''),
      realityDest: DEFAULT_REALITY_DEST,
      planRevision: '0',
    });
    expect(isRealityKey(config.inbound.pbk!)).toBe(true);
    expect(realityPublicKey(config.inbound.realityPrivateKey!)).toBe(config.inbound.pbk);
    expect(out).toContain(`REALITY public key ${config.inbound.pbk}`);
  });

  it("should ask for a port of the machine's own when 443 is taken, and say so", async () => {
    const { request, err } = await enrollWith({ core: 'v2ray' }, undefined, 'in-use');
    expect(request).toMatchObject({ requestedPort: 0, core: 'v2ray' });
    expect(err).toContain('already listens on port 443');
  });

  it('should ask for 443 again on --force when the replaced node served 443 (its own core holds it)', async () => {
    const first = await enrollWith({ core: 'v2ray' });
    expect(first.config.publicPort).toBe(443);
    const controlPlane = await fakeControlPlane();
    let err = '';
    try {
      await enroll(
        {
          server: controlPlane.target,
          token: TOKEN,
          tier: 'tier2',
          publicHost: '203.0.113.7',
          core: 'v2ray',
          config: first.configPath,
          force: true,
        },
        {
          io: { out: () => undefined, err: (t) => (err += t) },
          hardware: strongHardware,
          probePort: () => Promise.resolve('in-use'),
        },
      );
    } finally {
      controlPlane.close();
    }
    expect(controlPlane.requests[0]).toMatchObject({ requestedPort: 443 });
    expect(err).not.toContain('port 443');
  });

  it('should make a self-signed TLS certificate for v2ray beside the config (key 0600)', async () => {
    const { request, config, configPath } = await enrollWith({
      core: 'v2ray',
      publicPort: '8443',
      transport: 'ws',
    });
    expect(request).toMatchObject({ requestedPort: 8443, core: 'v2ray' });
    expect(config.publicPort).toBe(8443);
    expect(config.inbound).toMatchObject({
      security: 'tls',
      network: 'ws',
      selfSigned: true,
      sni: '203.0.113.7',
      certificateFile: path.join(path.dirname(configPath), 'tls', 'certificate.pem'),
    });
    expect(config.inbound.flow).toBeUndefined();
    expect((await stat(config.inbound.keyFile!)).mode & 0o777).toBe(0o600);
    const x509 = new X509Certificate(await readFile(config.inbound.certificateFile!));
    expect(x509.subjectAltName).toBe('IP Address:203.0.113.7');
  });

  it("should apply the control plane's plan: its port and transport", async () => {
    const { config } = await enrollWith(
      { core: 'v2ray' },
      { port: 24567, security: '', network: 'ws', revision: 3 },
    );
    expect(config.publicPort).toBe(24567);
    expect(config.inbound).toMatchObject({ security: 'tls', network: 'ws', planRevision: '3' });
    expect(config.inbound.path).toMatch(/^\/[0-9a-f]{16}$/);
  });

  it('should let the plan decide over --transport, and say so', async () => {
    const { config, err } = await enrollWith(
      { core: 'v2ray', transport: 'ws' },
      { port: 24567, security: 'tls', network: 'tcp', revision: 1 },
    );
    expect(config.inbound).toMatchObject({ security: 'tls', network: 'tcp', planRevision: '1' });
    expect(err).toContain(
      "the control plane's inbound plan r1 sets tls/tcp, so --transport ws is not used",
    );
  });

  it('should refuse a REALITY plan on v2ray, serve TLS and remember the refusal', async () => {
    const { config, err } = await enrollWith(
      { core: 'v2ray' },
      { port: 24567, security: 'reality', network: 'tcp', revision: 2 },
    );
    expect(config.inbound).toMatchObject({ security: 'tls', planRevision: '0' });
    expect(config.publicPort).toBe(443);
    expect(config.lastPlan).toMatchObject({ revision: '2', outcome: 'refused' });
    expect(err).toContain('REALITY needs Xray');
  });

  it.each([
    [{ core: 'v2ray', security: 'reality' }, /REALITY needs Xray/],
    [{ core: 'v2ray', transport: 'grpc' }, /no gRPC transport/],
    [{ security: 'reality', transport: 'ws' }, /tcp or grpc/],
    [{ certificateFile: '/x.pem' }, /--certificate-file and --key-file go together/],
    [{ certificateFile: '/x.pem', keyFile: '/y.pem' }, /--certificate-file is for --security tls/],
    [{ core: 'v2ray', certificateFile: '/nonexistent.pem', keyFile: '/y.pem' }, /ENOENT/],
    [{ core: 'v2ray', realityDest: 'www.example.com:443' }, /are for --security reality/],
    [{ transport: 'kcp' }, /must be tcp, ws or grpc/],
  ])('should exit 2 before spending the token with %j', async (flags, message) => {
    const error = await enrollError({
      server: '127.0.0.1:1',
      token: TOKEN,
      tier: 'tier2',
      ...flags,
    });
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
  });
});
