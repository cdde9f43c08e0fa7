import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeNeeding } from '../support/requirements';

/**
 * install.sh's pinned Xray release and its download-and-verify step, against a local
 * HTTP server on loopback serving a fake release archive: these machines cannot download Xray.
 * The functions come from the script itself, sourced (it stops after its functions when sourced).
 */
const SCRIPT = join(__dirname, '..', '..', '..', 'installer', 'install.sh');

/** Runs bash asynchronously: the HTTP server under test lives in this very process. */
function bash(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input = '',
): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', ...args], { env: { PATH: process.env.PATH, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
    // A script that refuses at once may exit before its stdin is written: that EPIPE is not a
    // failure of the test (its exit status and output are what each test checks).
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(input);
  });
}

/** Calls one of the script's functions with arguments. */
function scriptFunction(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return bash(['-c', `source "$0"; ${name} "$@"`, SCRIPT, ...args], env);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let work = '';
let archive = Buffer.alloc(0);
let server: Server;
let baseUrl = '';
const requests: string[] = [];

const describeLive = describeNeeding(['zip'], 'the pinned Xray release against a fake archive');
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'scn-xray-'));
  // A fake release archive laid out like the real one: the xray binary and its data files.
  const content = join(work, 'content');
  mkdirSync(content);
  writeFileSync(join(content, 'xray'), '#!/bin/sh\necho "fake xray $*"\n');
  chmodSync(join(content, 'xray'), 0o755);
  writeFileSync(join(content, 'geoip.dat'), 'geoip');
  writeFileSync(join(content, 'LICENSE'), 'license');
  execFileSync('zip', ['-q', '-X', join(work, 'fake.zip'), 'xray', 'geoip.dat', 'LICENSE'], {
    cwd: content,
  });
  archive = readFileSync(join(work, 'fake.zip'));
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    // The pinned version's release directory serves the fake archive too (a whole-script run
    // asks for it); v0.0.0 stands for a release that does not exist.
    const url = (request.url ?? '').replace(/^\/v26\.3\.27\//, '/v25.10.15/');
    if (url === '/v25.10.15/Xray-linux-64.zip') {
      response.writeHead(200, { 'Content-Type': 'application/zip' }).end(archive);
    } else if (url === '/v25.10.15/Xray-linux-arm64-v8a.zip') {
      // A tampered archive: one byte changed.
      const tampered = Buffer.from(archive);
      tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 1, tampered.length - 1);
      response.writeHead(200, { 'Content-Type': 'application/zip' }).end(tampered);
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => (requests.length = 0));

/** A fresh destination and work directory for one install. */
function dirs() {
  const root = mkdtempSync(join(work, 'run-'));
  mkdirSync(join(root, 'tmp'));
  return { dest: join(root, 'core'), tmp: join(root, 'tmp') };
}

describeLive('the pinned Xray release', () => {
  it('should pin one version and a sum or an explicit placeholder per archive, and refuse an unpinned archive', async () => {
    const { status, out } = await bash([
      '-c',
      'source "$0"; echo "$XRAY_VERSION|$XRAY_SHA256_LINUX_64|$XRAY_SHA256_LINUX_ARM64|$XRAY_BASE_URL"; xray_asset x86_64; xray_asset aarch64',
      SCRIPT,
    ]);
    expect(status).toBe(0);
    const [pins = '', asset64 = '', assetArm = ''] = out.trim().split('\n');
    const [version = '', sum64 = '', sumArm = '', base = ''] = pins.split('|');
    expect(version).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(base).toBe('https://github.com/XTLS/Xray-core/releases/download');
    // The real release names of XTLS/Xray-core.
    expect([asset64, assetArm]).toEqual(['Xray-linux-64.zip', 'Xray-linux-arm64-v8a.zip']);

    for (const [asset, sum] of [
      [asset64, sum64],
      [assetArm, sumArm],
    ] as const) {
      const pinned = await scriptFunction('xray_pinned_sha256', [asset]);
      if (/^[0-9a-f]{64}$/.test(sum)) {
        expect(pinned).toEqual({ status: 0, out: `${sum}\n` });
      } else {
        // Not yet filled from the release's .dgst file: refused, never skipped.
        expect(sum).toMatch(/^UNPINNED/);
        expect(pinned.status).toBe(1);
        expect(pinned.out).toContain(`no SHA-256 is pinned for ${asset} of Xray ${version}`);
        expect(pinned.out).toContain(`${base}/${version}/${asset}.dgst`);
      }
    }
    const unknown = await scriptFunction('xray_asset', ['riscv64']);
    expect(unknown.status).toBe(1);
    expect(unknown.out).toContain('no Xray release for riscv64: use --core PATH');
  });
});

describeLive('xray_install_verified', () => {
  it('should install the xray binary of an archive whose SHA-256 matches', async () => {
    const { dest, tmp } = dirs();
    const result = await scriptFunction('xray_install_verified', [
      baseUrl,
      'v25.10.15',
      'Xray-linux-64.zip',
      sha256(archive),
      dest,
      tmp,
    ]);
    expect(result).toEqual({ status: 0, out: '' });
    expect(requests).toEqual(['/v25.10.15/Xray-linux-64.zip']);
    // Only the binary, executable, under its fixed name; no temporary file left beside it.
    expect(readdirSync(dest)).toEqual(['xray']);
    expect(statSync(join(dest, 'xray')).mode & 0o777).toBe(0o755);
    expect(execFileSync(join(dest, 'xray'), ['version'], { encoding: 'utf8' })).toBe(
      'fake xray version\n',
    );
  });

  it('should refuse an archive whose SHA-256 differs, before unpacking, and keep the installed xray', async () => {
    const { dest, tmp } = dirs();
    mkdirSync(dest);
    writeFileSync(join(dest, 'xray'), 'previous');
    const result = await scriptFunction('xray_install_verified', [
      baseUrl,
      'v25.10.15',
      'Xray-linux-arm64-v8a.zip',
      sha256(archive), // the untampered archive's sum
      dest,
      tmp,
    ]);
    expect(result.status).toBe(1);
    expect(result.out).toContain(
      `SHA-256 mismatch for ${baseUrl}/v25.10.15/Xray-linux-arm64-v8a.zip: expected ${sha256(archive)}, got `,
    );
    expect(result.out).toContain('nothing was installed');
    expect(readdirSync(dest)).toEqual(['xray']);
    expect(readFileSync(join(dest, 'xray'), 'utf8')).toBe('previous');
    // Nothing was unpacked and the refused download is gone.
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('should refuse a wrong sum for a good archive and install nothing', async () => {
    const { dest, tmp } = dirs();
    const wrong = sha256(Buffer.from('something else'));
    const result = await scriptFunction('xray_install_verified', [
      baseUrl,
      'v25.10.15',
      'Xray-linux-64.zip',
      wrong,
      dest,
      tmp,
    ]);
    expect(result.status).toBe(1);
    expect(result.out).toContain(
      `expected ${wrong}, got ${sha256(archive)}; nothing was installed`,
    );
    expect(existsSync(dest)).toBe(false);
  });

  it('should refuse a sum that is not a SHA-256 without downloading anything', async () => {
    for (const sum of [
      '',
      'UNPINNED: fill from Xray-linux-64.zip.dgst',
      sha256(archive).toUpperCase(),
    ]) {
      const { dest, tmp } = dirs();
      const result = await scriptFunction('xray_install_verified', [
        baseUrl,
        'v25.10.15',
        'Xray-linux-64.zip',
        sum,
        dest,
        tmp,
      ]);
      expect(result.status).toBe(1);
      expect(result.out).toContain('is not a SHA-256 (64 lowercase hex digits)');
      expect(existsSync(dest)).toBe(false);
    }
    expect(requests).toEqual([]);
  });

  it('should say clearly when the release cannot be downloaded (missing or server down)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    for (const [url, version] of [
      [downUrl, 'v25.10.15'],
      [baseUrl, 'v0.0.0'],
    ] as const) {
      const { dest, tmp } = dirs();
      const result = await scriptFunction('xray_install_verified', [
        url,
        version,
        'Xray-linux-64.zip',
        sha256(archive),
        dest,
        tmp,
      ]);
      expect(result.status).toBe(1);
      expect(result.out).toContain(
        `could not download Xray ${version} from ${url}/${version}/Xray-linux-64.zip`,
      );
      expect(existsSync(dest)).toBe(false);
    }
  });
});

describeLive('install.sh --core xray', () => {
  function fakeRoot(): string {
    const root = mkdtempSync(join(work, 'root-'));
    mkdirSync(join(root, 'etc'));
    writeFileSync(join(root, 'etc', 'os-release'), 'ID=debian\nVERSION_ID="12"\n');
    return root;
  }
  const TOKEN = 'A'.repeat(43);
  const script = () => readFileSync(SCRIPT, 'utf8');
  const asset = process.arch === 'arm64' ? 'Xray-linux-arm64-v8a.zip' : 'Xray-linux-64.zip';

  it('should refuse up front, changing nothing, when no sum is pinned for this machine’s archive', async () => {
    const pins = await bash([
      '-c',
      'source "$0"; xray_pinned_sha256 "$(xray_asset "$(uname -m)")"',
      SCRIPT,
    ]);
    const root = fakeRoot();
    const result = await bash(
      ['-s', '--', '--token', TOKEN, '--tier', 'tier2', '--no-systemd'],
      { SCN_PREFIX: root, SCN_URL: 'http://127.0.0.1:9', SCN_XRAY_BASE_URL: baseUrl },
      script(),
    );
    if (pins.status === 0) {
      // Pinned: the real archive's sum cannot match the fake one.
      expect(result.status).toBe(1);
      expect(result.out).toContain('SHA-256 mismatch');
    } else {
      expect(result.status).toBe(1);
      expect(result.out).toContain(`no SHA-256 is pinned for ${asset}`);
      expect(requests).toEqual([]);
    }
    expect(readdirSync(root)).toEqual(['etc']);
  });

  it('should print the verified download in the dry-run plan', async () => {
    const sum = sha256(archive);
    const result = await bash(
      ['-s', '--', '--dry-run', '--token', TOKEN, '--tier', 'tier2', '--xray-sha256', sum],
      { SCN_PREFIX: fakeRoot(), SCN_URL: 'http://127.0.0.1:9', SCN_XRAY_BASE_URL: baseUrl },
      script(),
    );
    expect(result.status).toBe(0);
    expect(result.out).toContain(`Installing Xray v26.3.27 (${asset}, SHA-256 ${sum})`);
    expect(result.out).toContain(
      `[dry-run] download ${baseUrl}/v26.3.27/${asset}, check its SHA-256, install its xray as `,
    );
    expect(requests).toEqual([]);
  });

  it('should refuse a malformed --xray-sha256', async () => {
    const result = await bash(
      ['-s', '--', '--dry-run', '--token', TOKEN, '--tier', 'tier2', '--xray-sha256', 'abc'],
      { SCN_PREFIX: fakeRoot(), SCN_URL: 'http://127.0.0.1:9' },
      script(),
    );
    expect(result.status).toBe(1);
    expect(result.out).toContain("--xray-sha256 must be 64 lowercase hex digits (got 'abc')");
  });

  it('should stop on a mismatching archive before installing anything else (no agent, no core)', async () => {
    const root = fakeRoot();
    const wrong = sha256(Buffer.from('not the archive'));
    const result = await bash(
      ['-s', '--', '--token', TOKEN, '--tier', 'tier2', '--no-systemd', '--xray-sha256', wrong],
      // The control plane address is never reached: the core comes first.
      { SCN_PREFIX: root, SCN_URL: 'http://127.0.0.1:9', SCN_XRAY_BASE_URL: baseUrl },
      script(),
    );
    expect(result.status).toBe(1);
    expect(result.out).toContain('SHA-256 mismatch');
    expect(requests).toEqual([`/v26.3.27/${asset}`]);
    expect(readdirSync(root)).toEqual(['etc']);
    expect(readdirSync(join(root, 'etc'))).toEqual(['os-release']);
  });
});
