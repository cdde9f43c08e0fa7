import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLocalCa } from '../support/local-ca';

/**
 * The production deployment's files validate with the tools that run them (docs/deploy.md):
 * docker/compose.yml with Debian's docker-compose (which refuses a top-level `name:`), and
 * docker/Caddyfile with Debian's Caddy, both for compose's variables and for a machine without
 * Docker. The compose file has what a production deployment needs: no Redis, two replicas, a backup job.
 */
const ROOT = join(__dirname, '..', '..', '..');
const COMPOSE = join(ROOT, 'docker', 'compose.yml');
const CADDYFILE = join(ROOT, 'docker', 'Caddyfile');
const ENV_EXAMPLE = join(ROOT, 'docker', 'env.example');

function which(tool: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Variables of docker/env.example, as `docker-compose --env-file` reads them. */
function envExample(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

const dockerCompose = which('docker-compose');
if (!dockerCompose) {
  console.warn(
    'compose validation skipped: docker-compose is missing (apt-get install docker-compose)',
  );
}
const withCompose = dockerCompose ? describe : describe.skip;
const caddy = existsSync('/usr/bin/caddy') ? '/usr/bin/caddy' : null;
if (!caddy) console.warn('Caddyfile validation skipped: caddy is missing (apt-get install caddy)');
const withCaddy = caddy ? describe : describe.skip;

withCompose("docker/compose.yml with Debian's docker-compose", () => {
  const config = (env: Record<string, string>) =>
    spawnSync(dockerCompose!, ['-f', COMPOSE, 'config'], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('should validate with every variable of env.example, and name the services a production deployment needs', () => {
    const result = config(envExample());
    expect(result.stderr).not.toMatch(/ERROR|Unsupported|Invalid/i);
    expect(result.status).toBe(0);
    const services = /^services:\n((?: {2}.*\n| {4}.*\n)*)/m.exec(result.stdout)?.[1] ?? '';
    const names = [...services.matchAll(/^ {2}([a-z0-9-]+):$/gm)].map((m) => m[1]);
    expect(names.sort()).toEqual(
      ['backup', 'control-plane-a', 'control-plane-b', 'postgres', 'proxy'].sort(),
    );
    expect(result.stdout).not.toMatch(/redis/i);
    expect(result.stdout).toContain('pg_dump');
    // Both replicas, resolved from the shared anchor, trust the proxy's fixed address alone.
    expect(result.stdout.match(/TRUST_PROXY: 172\.31\.255\.2$/gm)).toHaveLength(2);
    expect(result.stdout).toContain('ipv4_address: 172.31.255.2');
    expect(result.stdout).toContain('h2c://control-plane-a:5051 h2c://control-plane-b:5051');
    expect(readFileSync(COMPOSE, 'utf8')).not.toMatch(/^name:/m);
  });

  it('should refuse to start without a required variable, naming it', () => {
    const { APP_SECRET: _dropped, ...rest } = envExample();
    const result = config(rest);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('set APP_SECRET');
  });
});

withCaddy("docker/Caddyfile with Debian's Caddy", () => {
  const validate = (env: Record<string, string>) =>
    execFileSync(caddy!, ['validate', '--adapter', 'caddyfile', '--config', CADDYFILE], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 60_000,
    });

  it("should validate with compose's variables (ACME) and with a certificate of one's own", () => {
    const upstreams = {
      SCN_HTTPS_PORT: '443',
      SCN_GRPC_PORT: '8443',
      SCN_HTTP_UPSTREAMS: '127.0.0.1:5050 127.0.0.1:5060',
      SCN_GRPC_UPSTREAMS: 'h2c://127.0.0.1:5051 h2c://127.0.0.1:5061',
    };
    expect(() =>
      validate({ ...upstreams, SCN_DOMAIN: 'scn.example.com', SCN_TLS: 'ops@example.com' }),
    ).not.toThrow();
    const dir = mkdtempSync(join(tmpdir(), 'scn-caddyfile-'));
    try {
      const ca = makeLocalCa(dir);
      const own = { SCN_DOMAIN: '127.0.0.1', SCN_TLS: `${ca.certificatePem} ${ca.keyPem}` };
      expect(() => validate({ ...upstreams, ...own })).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
