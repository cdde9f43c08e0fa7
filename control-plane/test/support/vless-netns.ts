import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real v2ray VLESS server on a test host of our own: a network namespace joined to this one
 * by a veth pair on a TEST-NET-3 /30 (RFC 5737), with no other route, so nothing it does can
 * leave the machine. The host side of the pair carries the probe target (a small HTTP server)
 * the VLESS server is asked to reach.
 */
export interface VlessTestHost {
  /** The namespace side: where the VLESS server listens. */
  serverAddress: string;
  /** The host side: where the probe target listens. */
  hostAddress: string;
  /** The CIDR of the pair (for MANUAL_SERVER_ALLOWED_CIDRS). */
  cidr: string;
  vlessPort: number;
  uuid: string;
  /** http://<hostAddress>:<port>/probe, answered 200 by an HTTP server on the host side. */
  probeUrl: string;
  /** GET requests the probe target answered. */
  probeHits: () => number;
  /** A plain TCP service in the namespace that is not VLESS (answers "SSH-2.0-..."). */
  notVlessPort: number;
  /** The same VLESS server over TLS, with a self-signed certificate for `tlsName` (and both addresses). */
  vlessTlsPort: number;
  tlsName: string;
  /** The certificate (PEM): a check trusts it only when told to (its `ca`). */
  certificate: string;
  /** https://<hostAddress>:<port>/probe with the same certificate. */
  httpsProbeUrl: string;
  close(): Promise<void>;
}

function sh(args: string[]): void {
  execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
}

/** Waits until something accepts TCP on address:port inside the namespace (via the veth). */
async function waitForPort(address: string, port: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: address, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${address}:${port}`);
}

/** Whether a process is still running (a lock it left behind is stale otherwise). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims one of the 32 /30 blocks inside 203.0.113.64/26 for this test host, so that suites
 * running at once (jest workers, several packages) never put the same address on two veths: the
 * host would then route one suite's packets into the other's namespace, where nothing listens
 * (a "could not connect" that only showed under load). A block is claimed by creating its lock
 * file exclusively (atomic across processes); a lock whose process is gone is taken over, and a
 * block whose address is still on an interface (a run that was killed) is skipped.
 */
function claimBlock(): { block: number; release(): void } {
  const inUse = execFileSync('ip', ['-o', '-4', 'addr', 'show'], { encoding: 'utf8' });
  const start = randomBytes(1)[0]! % 32;
  for (let i = 0; i < 32; i += 1) {
    const block = 64 + 4 * ((start + i) % 32);
    if (inUse.includes(` 203.0.113.${block + 1}/30 `)) continue;
    const lock = join(tmpdir(), `scn-test-net-203.0.113.${block}.lock`);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const fd = openSync(lock, 'wx');
        writeFileSync(fd, String(process.pid));
        closeSync(fd);
        return { block, release: () => rmSync(lock, { force: true }) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        // Empty: its owner created it a moment ago and is writing its pid.
        const owner = readFileSync(lock, 'utf8');
        if (!owner || alive(Number(owner))) break;
        rmSync(lock, { force: true });
      }
    }
  }
  throw new Error('no free /30 test block in 203.0.113.64/26');
}

/** `prefix` names the namespace, veths and temp folder (5 characters keep veth names legal). */
export async function startVlessTestHost(uuid: string, prefix = 'man15'): Promise<VlessTestHost> {
  // A /30 block inside 203.0.113.64/26 that no other test host holds now.
  const claim = claimBlock();
  const block = claim.block;
  const hostAddress = `203.0.113.${block + 1}`;
  const serverAddress = `203.0.113.${block + 2}`;
  const cidr = `203.0.113.${block}/30`;
  const tag = randomBytes(3).toString('hex');
  const ns = `${prefix}-${tag}`;
  const hostIf = `${prefix}h${tag}`;
  const nsIf = `${prefix}n${tag}`;
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const children: ChildProcess[] = [];
  let probe: Server | null = null;
  let httpsProbe: Server | null = null;

  const cleanup = async () => {
    for (const child of children) child.kill('SIGKILL');
    if (probe) await new Promise<void>((resolve) => probe!.close(() => resolve()));
    if (httpsProbe) await new Promise<void>((resolve) => httpsProbe!.close(() => resolve()));
    try {
      sh(['ip', 'link', 'del', hostIf]);
    } catch {
      /* already gone with the namespace */
    }
    try {
      sh(['ip', 'netns', 'del', ns]);
    } catch {
      /* never created */
    }
    rmSync(dir, { recursive: true, force: true });
    claim.release();
  };

  try {
    sh(['ip', 'netns', 'add', ns]);
    sh(['ip', 'link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    sh(['ip', 'link', 'set', nsIf, 'netns', ns]);
    sh(['ip', 'addr', 'add', `${hostAddress}/30`, 'dev', hostIf]);
    sh(['ip', 'link', 'set', hostIf, 'up']);
    sh(['ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `${serverAddress}/30`, 'dev', nsIf]);
    sh(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', nsIf, 'up']);
    sh(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);

    let hits = 0;
    probe = createServer((req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => probe!.listen(0, hostAddress, resolve));
    const probePort = (probe.address() as AddressInfo).port;

    const tlsName = 'vless.test';
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    sh([
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${tlsName}`,
      '-addext',
      `subjectAltName=DNS:${tlsName},IP:${hostAddress},IP:${serverAddress}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    const certificate = readFileSync(certFile, 'utf8');
    httpsProbe = createHttpsServer(
      { cert: certificate, key: readFileSync(keyFile) },
      (req, res) => {
        hits += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      },
    );
    await new Promise<void>((resolve) => httpsProbe!.listen(0, hostAddress, resolve));
    const httpsProbePort = (httpsProbe.address() as AddressInfo).port;

    // Below Linux's ephemeral range (32768-60999): a test that listens on loopback on the same
    // port (the DNS-rebinding check) must not find it taken by some connection's local port.
    const vlessPort = 20_000 + (randomBytes(2).readUInt16BE() % 12_000);
    const vlessTlsPort = vlessPort + 2;
    const config = {
      log: { loglevel: 'warning' },
      inbounds: [
        {
          listen: serverAddress,
          port: vlessPort,
          protocol: 'vless',
          settings: { clients: [{ id: uuid }], decryption: 'none' },
          streamSettings: { network: 'tcp', security: 'none' },
        },
        {
          listen: serverAddress,
          port: vlessTlsPort,
          protocol: 'vless',
          settings: { clients: [{ id: uuid }], decryption: 'none' },
          streamSettings: {
            network: 'tcp',
            security: 'tls',
            tlsSettings: { certificates: [{ certificateFile: certFile, keyFile }] },
          },
        },
      ],
      outbounds: [{ protocol: 'freedom' }],
    };
    const configFile = join(dir, 'v2ray.json');
    writeFileSync(configFile, JSON.stringify(config));
    const v2ray = spawn('ip', ['netns', 'exec', ns, '/usr/bin/v2ray', '-config', configFile], {
      stdio: 'ignore',
    });
    children.push(v2ray);

    // Not VLESS: a line-speaking TCP service, like an SSH server's banner. A client that closes
    // with the banner unread sends a reset (waitForPort does): without an error listener that
    // reset would kill the service, and a later check would find nothing listening.
    const notVlessPort = vlessPort + 1;
    const banner = spawn(
      'ip',
      [
        'netns',
        'exec',
        ns,
        process.execPath,
        '-e',
        `require('net').createServer((s) => { s.on('error', () => s.destroy()); s.end('SSH-2.0-OpenSSH_9.2\\r\\n'); }).listen(${notVlessPort}, '${serverAddress}')`,
      ],
      { stdio: 'ignore' },
    );
    children.push(banner);

    await waitForPort(serverAddress, vlessPort);
    await waitForPort(serverAddress, notVlessPort);
    await waitForPort(serverAddress, vlessTlsPort);
    return {
      serverAddress,
      hostAddress,
      cidr,
      vlessPort,
      uuid,
      probeUrl: `http://${hostAddress}:${probePort}/probe`,
      probeHits: () => hits,
      notVlessPort,
      vlessTlsPort,
      tlsName,
      certificate,
      httpsProbeUrl: `https://${hostAddress}:${httpsProbePort}/probe`,
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
