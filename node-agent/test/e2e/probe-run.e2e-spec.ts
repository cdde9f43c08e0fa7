import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { probeEnroll } from '../../src/commands/probe-enroll';
import { probeRun } from '../../src/commands/probe-run';
import { writeProbeConfig } from '../../src/config/probe-config';
import {
  type FakeProbeControlPlane,
  startFakeProbeControlPlane,
} from './fake-probe-control-plane.support';
import { type ProbeTargets, startProbeTargets } from './probe-targets.support';
import { V2RAY } from './v2ray-node';

/**
 * `scn-agent probe enroll` and `probe run` against an in-process fake of the control plane's
 * three vantage-point calls (grpc-js on loopback), testing a real v2ray and loopback stand-ins.
 */
const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`probe run e2e skipped: ${V2RAY} is missing`);
const describeLive = hasV2ray ? describe : describe.skip;
const TOKEN = 'probe_token_0123456789abcdefghijklmnopqrstuv';
const AGENT_BIN = path.join(__dirname, '../../dist/src/index.js');

let fake: FakeProbeControlPlane;
let targets: ProbeTargets;
let dir: string;
let configPath: string;

function capture() {
  const lines: string[] = [];
  return {
    lines,
    io: {
      out: (text: string) => void lines.push(text),
      err: (text: string) => void lines.push(text),
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'scn-probe-run-'));
  configPath = path.join(dir, 'probe.json');
  fake = await startFakeProbeControlPlane();
  if (hasV2ray) targets = await startProbeTargets(V2RAY, randomUUID());
});
afterAll(async () => {
  await fake?.close();
  await targets?.close();
  await rm(dir, { recursive: true, force: true });
});

describeLive('scn-agent probe', () => {
  it('should enroll and store the credential in a 0600 file, plaintext only to loopback', async () => {
    const { io, lines } = capture();
    const result = await probeEnroll(
      { controlPlane: fake.target, token: TOKEN, name: 'Tehran fibre', config: configPath },
      { io },
    );
    expect(result.probeId).toBe(fake.probeId);
    expect(fake.enrollments).toEqual([
      expect.objectContaining({
        enrollmentToken: TOKEN,
        name: 'Tehran fibre',
        agentVersion: expect.any(String),
      }),
    ]);
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(configPath, 'utf8'))).toMatchObject({
      controlPlane: fake.target,
      tls: false,
      probeId: fake.probeId,
      probeSecret: fake.probeSecret,
      country: 'IR',
      asn: 44244,
    });
    expect(lines.join('')).toContain(
      `Enrolled vantage point ${fake.probeId} (seen from IR, AS44244)`,
    );
    await expect(
      probeEnroll({ controlPlane: fake.target, token: TOKEN, config: configPath }, { io }),
    ).rejects.toThrow(/already enrolled/);
  });

  it('should test every endpoint and report one result each, with the probe credential', async () => {
    fake.calls.length = 0;
    fake.reports.length = 0;
    const endpoint = (serverId: string, port: number, extra: Record<string, string> = {}) => ({
      serverId,
      host: '127.0.0.1',
      port,
      security: 'none',
      network: 'tcp',
      probeUuid: targets.uuid,
      planRevision: 7,
      ...extra,
    });
    fake.tasks = {
      endpoints: [
        endpoint('s-ok', targets.ports.none),
        endpoint('s-ws', targets.ports.tlsWs, {
          security: 'tls',
          network: 'ws',
          path: targets.wsPath,
          certificateSha256: targets.pin,
        }),
        endpoint('s-pin', targets.ports.tls, {
          security: 'tls',
          certificateSha256: 'cd'.repeat(32),
        }),
        endpoint('s-refused', targets.closedPort),
        endpoint('s-reset', targets.resetPort, { security: 'tls', certificateSha256: targets.pin }),
        endpoint('s-reality', targets.ports.tls, { security: 'reality', sni: 'www.example.com' }),
      ],
      intervalMs: 60_000,
      timeoutMs: 5_000,
      targetUrl: targets.targetUrl,
    };
    const { io, lines } = capture();
    const outcome = await probeRun(
      { config: configPath, once: true },
      { io, stopSignal: new Promise(() => undefined) },
    );
    expect(outcome).toEqual({ cycles: 1, failures: 0 });
    expect(fake.calls.map((call) => call.rpc)).toEqual(['ProbeTasks', 'ReportProbe']);
    for (const call of fake.calls) {
      expect(call).toMatchObject({
        probeId: fake.probeId,
        authorization: `Bearer ${fake.probeSecret}`,
      });
    }
    expect(fake.reports).toHaveLength(1);
    const results = fake.reports[0]!.results;
    expect(results.map((r) => [r.serverId, r.errorClass])).toEqual([
      ['s-ok', 'ok'],
      ['s-ws', 'ok'],
      ['s-pin', 'wrong_certificate'],
      ['s-refused', 'refused'],
      ['s-reset', 'reset'],
      ['s-reality', 'vless_untested'],
    ]);
    expect(results[0]).toMatchObject({
      planRevision: '7',
      tcpOk: true,
      handshakeOk: true,
      vlessOk: true,
    });
    expect(results[2]).toMatchObject({ tcpOk: true, handshakeOk: false, vlessOk: false });
    expect(results[3]).toMatchObject({ tcpOk: false, handshakeOk: false });
    expect(results[5]).toMatchObject({ tcpOk: true, handshakeOk: true, vlessOk: false });
    const log = lines.join('');
    expect(log).toMatch(
      /tested 6 endpoints in \d+ ms \(2 ok, 1 refused, 1 reset, 1 wrong_certificate, 1 vless_untested\); [\d.]+ KiB sent, [\d.]+ KiB received, \d+ B\/endpoint; next in \d+ s \([\d.]+ endpoints\/min\)/,
    );
    console.log(log);
  });

  it('should wait the interval between cycles and stop when asked', async () => {
    fake.calls.length = 0;
    fake.tasks = { ...fake.tasks, endpoints: [fake.tasks.endpoints![0]!], intervalMs: 200 };
    let stop: () => void = () => undefined;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    const run = probeRun(
      { config: configPath },
      { io: capture().io, stopSignal, minIntervalMs: 200, random: () => 0.5 },
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    stop();
    const outcome = await run;
    const tasksAt = fake.calls.filter((call) => call.rpc === 'ProbeTasks').map((call) => call.at);
    expect(outcome.cycles).toBeGreaterThanOrEqual(2);
    expect(outcome.cycles).toBeLessThanOrEqual(4);
    for (let i = 1; i < tasksAt.length; i += 1)
      expect(tasksAt[i]! - tasksAt[i - 1]!).toBeGreaterThanOrEqual(190);
  });

  it('should back off on errors instead of asking again at once', async () => {
    fake.calls.length = 0;
    fake.failTasksWith = grpc.status.UNIMPLEMENTED;
    const { io, lines } = capture();
    let stop: () => void = () => undefined;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    const run = probeRun({ config: configPath }, { io, stopSignal, random: () => 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stop();
    expect(await run).toEqual({ cycles: 0, failures: 1 });
    fake.failTasksWith = null;
    expect(fake.calls).toHaveLength(1);
    expect(lines.join('')).toMatch(/cycle failed: UNIMPLEMENTED: not yet; retrying in 3 s/);
  });

  it('should refuse plaintext to a control plane that is not on loopback', async () => {
    const file = path.join(dir, 'remote.json');
    await writeProbeConfig(file, {
      controlPlane: '203.0.113.5:50051',
      tls: false,
      probeId: fake.probeId,
      probeSecret: fake.probeSecret,
    });
    await expect(probeRun({ config: file, once: true }, { io: capture().io })).rejects.toThrow(
      /refusing plaintext gRPC/,
    );
  });

  it('should stop cleanly on SIGTERM (the built CLI)', async () => {
    fake.tasks = { ...fake.tasks, intervalMs: 60_000 };
    const child = spawn(process.execPath, [AGENT_BIN, 'probe', 'run', '--config', configPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    const deadline = Date.now() + 15_000;
    while (!/tested 1 endpoint/.test(stderr) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/tested 1 endpoint .*\(1 ok\)/);
    expect(stderr).toContain('stopped after 1 cycle');
  });
});
