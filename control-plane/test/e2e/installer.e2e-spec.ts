import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { itNeeding } from '../support/requirements';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let script = '';
beforeAll(async () => {
  t = await startTestApp({ GRPC_PORT: '5999' });
  script = (await t.http().get('/install.sh').expect(200)).text;
});
afterAll(() => t.close());

/** A throwaway root with a Debian os-release, so nothing outside it is touched. */
function fakeRoot(osId = 'debian'): string {
  const root = mkdtempSync(join(tmpdir(), 'scn-install-'));
  mkdirSync(join(root, 'etc'));
  writeFileSync(join(root, 'etc', 'os-release'), `ID=${osId}\nVERSION_ID="12"\n`);
  return root;
}

function install(args: string[], options: { root?: string; asUser?: boolean } = {}) {
  const root = options.root ?? fakeRoot();
  // A run as root drops to nobody to be refused; one that is not root already is (a newcomer's).
  const dropRoot = options.asUser && process.getuid?.() === 0;
  const command = dropRoot ? 'setpriv' : 'bash';
  const commandArgs = dropRoot
    ? ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-s', '--', ...args]
    : ['-s', '--', ...args];
  const result = spawnSync(command, commandArgs, {
    input: script,
    env: { PATH: process.env.PATH, SCN_PREFIX: root },
    encoding: 'utf8',
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}`, root };
}

const TOKEN = 'A'.repeat(43);
/** A tier-2 node's install: the options every node install needs. */
const NODE_ARGS = ['--token', TOKEN, '--tier', 'tier2'];

/** A dry run of a tier-2 node's install with `args` added. */
function dryRunNode(args: string[], options: { root?: string } = {}) {
  return install(['--dry-run', ...NODE_ARGS, ...args], options);
}

describe('GET /install.sh', () => {
  it('should serve the installer with this control plane’s addresses filled in', async () => {
    const res = await t.http().get('/install.sh').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/x-shellscript/);
    expect(res.text.startsWith('#!/usr/bin/env bash')).toBe(true);
    expect(res.text).toContain(`SCN_URL="\${SCN_URL:-${t.config.publicUrl}}"`);
    expect(res.text).toContain('GRPC_TARGET="${SCN_GRPC_TARGET:-localhost:5999}"');
    expect(res.text).not.toContain('__SCN_');
  });

  itNeeding(['shellcheck'], 'shellcheck of install.sh')('should pass shellcheck', () => {
    const shellcheck = spawnSync('shellcheck', ['-'], { input: script, encoding: 'utf8' });
    expect(shellcheck.stdout + shellcheck.stderr).toBe('');
    expect(shellcheck.status).toBe(0);
  });

  it('should answer 404 JSON for the agent bundle and its checksum when it is not there, never the portal', async () => {
    // Every build makes the bundle, so a control plane whose bundle file is missing (a bare
    // checkout run without a build, a deleted file) is started here with a path that names none.
    const bare = await startTestApp(
      {},
      { agentBundleFile: join(mkdtempSync(join(tmpdir(), 'scn-no-bundle-')), 'scn-agent.tgz') },
    );
    try {
      const res = await bare
        .http()
        .get('/downloads/scn-agent.tgz')
        .set('Accept', 'text/html')
        .expect(404);
      expect(res.body).toEqual({ success: false, message: 'Not found', code: 'common.not_found' });
      const checksum = await bare.http().get('/checksums/server').expect(404);
      expect(checksum.body).toMatchObject({ success: false });
    } finally {
      await bare.close();
    }
  });

  it('should serve the bundle the build made', async () => {
    await t.http().get('/downloads/scn-agent.tgz').expect(200);
  });
});

describe('install.sh --dry-run', () => {
  it('should print the whole plan and change nothing', () => {
    const { status, out, root } = dryRunNode([
      '--core',
      'v2ray',
      '--public-host',
      'node.example.net',
    ]);
    expect(out).toContain('tier tier2, core v2ray, dry run');
    expect(out).toContain(`[dry-run] curl -fsSL ${t.config.publicUrl}/downloads/scn-agent.tgz`);
    expect(out).toContain('[dry-run] apt-get install -y -qq v2ray');
    expect(out).toMatch(
      /\[dry-run\] \S+\/usr\/local\/bin\/scn-agent enroll --server localhost:5999 --token A{43} --tier tier2/,
    );
    expect(out).toContain('--public-host node.example.net');
    expect(out).toContain('ExecStart=/usr/local/bin/scn-agent run --config');
    expect(out).toContain('NoNewPrivileges=yes');
    expect(out).toContain('[dry-run] systemctl enable scn-agent');
    expect(status).toBe(0);
    expect(readdirSync(root).sort()).toEqual(['etc']);
    expect(readdirSync(join(root, 'etc'))).toEqual(['os-release']);
  });

  it('should pass the place and a private CA to the agent, the CA copied where the unit can read it', () => {
    const root = fakeRoot();
    writeFileSync(join(root, 'ca.pem'), 'CA\n');
    const { status, out } = dryRunNode(
      [
        '--core',
        'v2ray',
        '--country',
        'de',
        '--location',
        'Frankfurt, Hetzner FSN1',
        '--ca-file',
        join(root, 'ca.pem'),
      ],
      { root },
    );
    expect(status).toBe(0);
    expect(out).toContain(
      `[dry-run] install -m 0644 ${join(root, 'ca.pem')} ${root}/etc/scn-agent/ca.pem`,
    );
    expect(out).toMatch(
      /scn-agent enroll .* --country de --location Frankfurt\\,\\ Hetzner\\ FSN1 --ca-file \S+\/etc\/scn-agent\/ca\.pem/,
    );
    // Nothing was copied in a dry run.
    expect(existsSync(join(root, 'etc', 'scn-agent'))).toBe(false);
  });

  it('should leave the port to the agent and the agent set up REALITY with Xray by default', () => {
    const sum = 'a'.repeat(64);
    const { status, out } = dryRunNode(['--xray-sha256', sum]);
    expect(status).toBe(0);
    expect(out).toMatch(
      /scn-agent enroll --server localhost:5999 .* --core xray --core-binary \S+\/opt\/scn-agent\/core\/xray/,
    );
    // No --public-port: the agent asks for 443 when free there, else for a port of the machine's
    // own (node-agent/src/commands/enroll-port.ts).
    expect(out).not.toContain('--public-port');
    // No --security: the agent's Xray default, VLESS + REALITY + xtls-rprx-vision.
    expect(out).not.toContain('--security');
  });

  it('should pass the REALITY target and an explicit port to the agent', () => {
    const sum = 'a'.repeat(64);
    const { status, out } = dryRunNode([
      '--xray-sha256',
      sum,
      '--public-port',
      '8443',
      '--reality-dest',
      'www.example.org:443',
      '--reality-sni',
      'www.example.org',
    ]);
    expect(status).toBe(0);
    expect(out).toMatch(
      /scn-agent enroll .* --public-port 8443 .*--reality-dest www\.example\.org:443 --reality-sni www\.example\.org/,
    );
  });

  it('should copy an operator certificate where the unit can read it and ask the agent for TLS with it', () => {
    const root = fakeRoot();
    writeFileSync(join(root, 'cert.pem'), 'CERT\n');
    writeFileSync(join(root, 'key.pem'), 'KEY\n');
    const { status, out } = dryRunNode(
      [
        '--core',
        'v2ray',
        '--certificate-file',
        join(root, 'cert.pem'),
        '--key-file',
        join(root, 'key.pem'),
      ],
      { root },
    );
    expect(status).toBe(0);
    expect(out).toContain(
      `[dry-run] install -m 0600 ${join(root, 'key.pem')} ${root}/etc/scn-agent/tls-operator/key.pem`,
    );
    expect(out).toMatch(
      /--security tls --certificate-file \S+\/etc\/scn-agent\/tls-operator\/certificate\.pem --key-file \S+\/etc\/scn-agent\/tls-operator\/key\.pem/,
    );
  });

  it('should skip the systemd unit with --no-systemd', () => {
    const { status, out } = install([
      '--dry-run',
      '--token',
      TOKEN,
      '--tier',
      'tier1',
      '--core',
      'v2ray',
      '--no-systemd',
    ]);
    expect(status).toBe(0);
    expect(out).not.toContain('systemctl');
  });
});

describe('install.sh --probe --dry-run', () => {
  it('should install only the agent, enroll a vantage point and start its own unit', () => {
    const { status, out, root } = install([
      '--dry-run',
      '--probe',
      '--token',
      TOKEN,
      '--name',
      'Home line',
    ]);
    expect(status).toBe(0);
    expect(out).toContain('SCN vantage point installer');
    expect(out).toContain(`[dry-run] curl -fsSL ${t.config.publicUrl}/downloads/scn-agent.tgz`);
    expect(out).toMatch(
      /\[dry-run\] \S+\/usr\/local\/bin\/scn-agent probe enroll --control-plane localhost:5999 --token A{43} --config \S+\/etc\/scn-agent\/probe.json --name Home\\ line/,
    );
    expect(out).toContain('ExecStart=/usr/local/bin/scn-agent probe run --config');
    expect(out).toContain('[dry-run] systemctl enable scn-agent-probe');
    // No proxy core, no open ports, no node enrollment.
    expect(out).not.toMatch(/v2ray|Xray|ufw|firewall|--tier/);
    expect(readdirSync(root).sort()).toEqual(['etc']);
  });

  it('should ask for the token when the vantage point is not enrolled yet', () => {
    const { status, out } = install(['--dry-run', '--probe']);
    expect(status).toBe(1);
    expect(out).toContain("--token is required: copy the command from the portal's Vantage points");
  });
});

describe('install.sh refusals', () => {
  it.each([
    [
      ['--token', TOKEN, '--tier', 'tier9'],
      "--tier must be tier1, tier2, tier3 or tier4 (got 'tier9')",
    ],
    [['--tier', 'tier2'], '--token is required: copy the command from the setup wizard'],
    [[...NODE_ARGS, '--public-port', '70000'], '--public-port must be 1-65535'],
    [
      [...NODE_ARGS, '--reality-dest', 'no port'],
      "--reality-dest must be host:port, e.g. www.debian.org:443 (got 'no port')",
    ],
    [
      [...NODE_ARGS, '--core', 'nginx'],
      "--core must be xray, v2ray or an absolute path (got 'nginx')",
    ],
    [
      [...NODE_ARGS, '--country', 'Germany'],
      "--country must be a two-letter ISO 3166-1 code such as DE or US (got 'Germany')",
    ],
    [
      [...NODE_ARGS, '--ca-file', '/nonexistent/ca.pem'],
      '--ca-file /nonexistent/ca.pem is not a readable file',
    ],
    [['--bogus'], 'unknown option: --bogus'],
  ])('should refuse %j with a clear message', (args, message) => {
    const { status, out } = install(['--dry-run', ...args]);
    expect(status).toBe(1);
    expect(out).toContain(message);
  });

  it('should refuse a distribution other than Debian or Ubuntu', () => {
    const { status, out } = dryRunNode([], {
      root: fakeRoot('fedora'),
    });
    expect(status).toBe(1);
    expect(out).toContain('only Debian and Ubuntu are supported (found: fedora');
  });

  it('should refuse to run without root', () => {
    const root = fakeRoot();
    spawnSync('chmod', ['-R', 'a+rX', root]);
    const { status, out } = install(NODE_ARGS, { root, asUser: true });
    expect(status).toBe(1);
    expect(out).toContain('must run as root');
  });
});
