import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { enroll } from '../../src/commands/enroll';
import { AgentDaemon } from '../../src/commands/run';
import { collectStatus } from '../../src/commands/status';
import { AgentConfigStore, readAgentConfig, writeAgentConfig } from '../../src/config/agent-config';
import { AgentError, EXIT_CODES } from '../../src/errors';
import { readHardware } from '../../src/system/hardware';
import {
  type ControlPlaneKit,
  hasDatabase,
  loadControlPlaneKit,
  type ClientSetsServiceShape,
  type TestApp,
  clientsOf,
} from './control-plane-kit';

/**
 * The real agent against the real control plane over gRPC with TLS, as in production: the
 * control plane has a certificate (GRPC_TLS_CERT/GRPC_TLS_KEY) issued by a private CA, and the
 * agent trusts that CA through `enroll --ca-file`. Everything after enrollment (reports, the
 * push stream, status) uses the same trust from the config file. An agent that trusts another CA
 * is refused before it sends its token, and says why.
 */
const withDatabase = hasDatabase ? describe : describe.skip;

function openssl(cwd: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

/** A CA (key + self-signed certificate) named `name` in `dir`. */
function makeCa(dir: string, name: string): void {
  // prettier-ignore
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-days', '2', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign',
    '-keyout', `${name}.key`, '-out', `${name}.pem`);
}

/** A server certificate for localhost and 127.0.0.1, issued by the CA `ca`. */
async function makeServerCertificate(dir: string, ca: string): Promise<void> {
  await writeFile(
    path.join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  // prettier-ignore
  openssl(dir, 'req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
  // prettier-ignore
  openssl(dir, 'x509', '-req', '-in', 'server.csr', '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`,
    '-CAcreateserial', '-days', '2', '-extfile', 'server.ext', '-out', 'server.pem');
}

async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

withDatabase('agent <-> control plane over TLS (--ca-file)', () => {
  let kit: ControlPlaneKit;
  let t: TestApp;
  let dir: string;
  let grpcPort: number;
  let operator: { uuid: string; token: string };
  const io = { out: () => undefined, err: () => undefined };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'scn-agent-tls-'));
    makeCa(dir, 'scn-ca');
    makeCa(dir, 'other-ca');
    await makeServerCertificate(dir, 'scn-ca');
    kit = await loadControlPlaneKit();
    t = await kit.startTestApp({
      GRPC_TLS_CERT: path.join(dir, 'server.pem'),
      GRPC_TLS_KEY: path.join(dir, 'server.key'),
    });
    grpcPort = t.app.get<{ port: number }>(kit.AgentGrpcServer).port;
    operator = await kit.registerAccount(t, { userType: 'node' });
  });

  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function token(): Promise<string> {
    const res = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ tier: 'tier1' })
      .expect(201);
    return (res.body as { token: string }).token;
  }

  async function enrollError(flags: Record<string, unknown>): Promise<AgentError> {
    try {
      await enroll(
        {
          token: flags.token ?? (await token()),
          tier: 'tier1',
          publicHost: '198.51.100.30',
          config: path.join(dir, `refused-${Date.now()}.json`),
          ...flags,
        },
        { io },
      );
    } catch (error) {
      if (error instanceof AgentError) return error;
      throw error;
    }
    throw new Error('expected the enrollment to be refused');
  }

  it('should enroll, report, follow the push stream and show status over TLS with --ca-file', async () => {
    const configPath = path.join(dir, 'agent', 'config.json');
    const enrolled = await enroll(
      {
        server: `localhost:${grpcPort}`,
        token: await token(),
        tier: 'tier1',
        publicHost: '198.51.100.30',
        publicPort: '8443',
        // Relative, as an operator may type it: the config keeps it absolute for the daemon.
        caFile: path.relative(process.cwd(), path.join(dir, 'scn-ca.pem')),
        config: configPath,
      },
      { io },
    );
    const config = await readAgentConfig(configPath);
    expect(config).toMatchObject({
      nodeId: enrolled.nodeId,
      controlPlane: `localhost:${grpcPort}`,
      tls: true,
      caFile: path.join(dir, 'scn-ca.pem'),
    });

    const daemon = new AgentDaemon(
      new AgentConfigStore(configPath, config),
      null,
      io,
      readHardware,
    );
    await daemon.start();
    try {
      await until(() => daemon.store.current.lastReport !== undefined);
      expect(daemon.store.current.lastReport).toMatchObject({ accepted: true, error: null });
      const [row] = await t.db.query<{ host: string; port: number }>(
        'SELECT host, port FROM servers WHERE id = $1',
        [enrolled.nodeId],
      );
      expect(row).toEqual({ host: '198.51.100.30', port: 8443 });

      const version = await t.app
        .get<ClientSetsServiceShape>(kit.ClientSetsService)
        .setAllowedClients(enrolled.nodeId, ['aaaaaaaa-0000-4000-8000-0000000000a1']);
      await until(() => daemon.store.current.appliedClientSetVersion === version);
      expect(await clientsOf(t, enrolled.nodeId, daemon.store.current.allowedClients)).toEqual([
        'aaaaaaaa-0000-4000-8000-0000000000a1',
      ]);
    } finally {
      await daemon.stop();
    }

    const status = await collectStatus({ config: configPath, timeout: '3000' });
    expect(status.controlPlane).toMatchObject({ reachable: true, tls: true, error: null });

    // The same node with the wrong CA in its config: status says why it cannot connect.
    const wrongCa = path.join(dir, 'agent', 'wrong-ca.json');
    await writeAgentConfig(wrongCa, { ...config, caFile: path.join(dir, 'other-ca.pem') });
    const refused = await collectStatus({ config: wrongCa, timeout: '1000' });
    expect(refused.controlPlane).toMatchObject({
      reachable: false,
      tls: true,
      error: 'TLS: unable to verify the first certificate',
    });
  });

  it('should refuse a control plane whose certificate another CA issued, with a clear error and the token unspent', async () => {
    const servers = 'SELECT id FROM servers WHERE owner_uuid = $1';
    const before = await t.db.query(servers, [operator.uuid]);
    const oneTime = await token();
    const otherCa = path.join(dir, 'other-ca.pem');
    const error = await enrollError({
      server: `localhost:${grpcPort}`,
      token: oneTime,
      caFile: otherCa,
    });
    expect(error.message).toBe(
      "enrollment failed: the control plane's TLS certificate is not trusted " +
        `(unable to verify the first certificate): it was not issued by a CA in ${otherCa}`,
    );
    expect(error.hint).toContain('--ca-file');
    // Not a network problem: not the "unreachable" code that scripts retry on.
    expect(error.exitCode).toBe(EXIT_CODES.failure);
    // The agent hung up before sending anything: no server, and the token is still good.
    expect(await t.db.query(servers, [operator.uuid])).toEqual(before);
    expect(
      await t.db.query('SELECT used_at FROM enrollment_tokens WHERE owner_uuid = $1', [
        operator.uuid,
      ]),
    ).toContainEqual({ used_at: null });
    const retried = await enroll(
      {
        server: `localhost:${grpcPort}`,
        token: oneTime,
        tier: 'tier1',
        publicHost: '198.51.100.31',
        caFile: path.join(dir, 'scn-ca.pem'),
        config: path.join(dir, 'retried.json'),
      },
      { io },
    );
    expect(retried.tier).toBe('tier1');
  });

  it('should point a plaintext agent that meets the TLS control plane to --ca-file', async () => {
    const error = await enrollError({ server: `127.0.0.1:${grpcPort}` });
    expect(error.message).toMatch(/^enrollment failed: control plane unreachable \(/);
    expect(error.message).not.toContain('Resolution note');
    expect(error.exitCode).toBe(EXIT_CODES.unavailable);
    expect(error.hint).toContain('--ca-file');
  });

  it('should refuse a --ca-file that holds no certificate before contacting anyone', async () => {
    const garbage = path.join(dir, 'garbage.pem');
    await writeFile(garbage, 'not a certificate\n');
    const error = await enrollError({ server: `localhost:${grpcPort}`, caFile: garbage });
    expect(error.message).toBe(`CA file ${garbage} does not hold a PEM certificate`);
    expect(error.exitCode).toBe(EXIT_CODES.config);
    const missing = await enrollError({
      server: `localhost:${grpcPort}`,
      caFile: path.join(dir, 'missing.pem'),
    });
    expect(missing.message).toMatch(/^cannot read CA file .*missing\.pem: ENOENT/);
    expect(missing.exitCode).toBe(EXIT_CODES.config);
  });
});
