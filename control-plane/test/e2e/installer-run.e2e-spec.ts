import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { AGENT_BUNDLE_PATH } from '../../src/config/app-config';
import { registerAccount } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { describeNeeding } from '../support/requirements';

/**
 * A real run of install.sh into a throwaway root (no systemd): it downloads the agent bundle from
 * the control plane, installs it, enrolls over gRPC on loopback, and the node appears.
 */
let t: TestApp;
let baseUrl = '';

/** Runs bash asynchronously: the control plane under test lives in this very process. */
function bash(
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', args, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    // A script that exits before reading its stdin makes this write fail with EPIPE: its exit
    // status and output are what the test checks, not the write.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(input);
  });
}
const describeLive = describeNeeding(['v2ray', 'root'], 'install.sh run for real');
beforeAll(async () => {
  // node-agent's build makes it; a suite that made its own would hide a build that does not.
  if (!existsSync(AGENT_BUNDLE_PATH)) {
    throw new Error(`${AGENT_BUNDLE_PATH} is missing: run \`npm run build\` first`);
  }
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}, 120_000);
afterAll(() => t.close());

describeLive('install.sh, for real', () => {
  it('should install the agent and enroll the node, then upgrade in place on a second run', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const { body } = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ tier: 'tier1' })
      .expect(201);
    const script = (await t.http().get('/install.sh').expect(200)).text;
    const root = mkdtempSync(join(tmpdir(), 'scn-install-run-'));
    mkdirSync(join(root, 'etc'));
    writeFileSync(join(root, 'etc', 'os-release'), 'ID=debian\nVERSION_ID="12"\n');
    const env = {
      PATH: process.env.PATH,
      SCN_PREFIX: root,
      SCN_URL: baseUrl,
      SCN_GRPC_TARGET: `127.0.0.1:${t.app.get(AgentGrpcServer).port}`,
    };
    const args = [
      '-s',
      '--',
      '--token',
      body.token,
      '--tier',
      'tier1',
      '--core',
      '/usr/bin/v2ray',
      '--public-host',
      'node.example.net',
      '--no-systemd',
    ];

    const first = await bash(args, script, env);
    expect({ status: first.status, out: first.stdout + first.stderr }).toMatchObject({ status: 0 });
    expect(existsSync(join(root, 'opt', 'scn-agent', 'bin', 'scn-agent.js'))).toBe(true);
    const configFile = join(root, 'etc', 'scn-agent', 'config.json');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as {
      nodeId: string;
      tier: string;
      inbound: { security: string; selfSigned?: boolean; keyFile: string; certificateFile: string };
    };
    expect(config.tier).toBe('tier1');
    // The bundled agent made the v2ray node's TLS certificate beside its config.
    expect(config.inbound).toMatchObject({
      security: 'tls',
      selfSigned: true,
      certificateFile: join(root, 'etc', 'scn-agent', 'tls', 'certificate.pem'),
    });
    expect(statSync(config.inbound.keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(config.inbound.certificateFile, 'utf8')).toContain('BEGIN CERTIFICATE');

    const servers = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    expect(servers.body.servers.map((s: { id: string }) => s.id)).toEqual([config.nodeId]);

    // Again: the token is spent, but the node keeps its identity and the agent is upgraded.
    const second = await bash(args, script, env);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Already enrolled');
    expect(JSON.parse(readFileSync(configFile, 'utf8')).nodeId).toBe(config.nodeId);
  }, 60_000);
});
