import { type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CoreApiClient } from '../../src/proxy-core/core-api';
import { VLESS_INBOUND_TAG } from '../../src/proxy-core/core-config';
import { XrayCore } from '../../src/proxy-core/xray-core';
import {
  eventually,
  freePort,
  killAndWait,
  type LocalHttpServer,
  socksHttpGet,
  startHttpServer,
  startVlessClient,
} from './proxy-core.support';

const V2RAY = '/usr/bin/v2ray';
const BODY = 'hello through the node';
const ALLOWED_UUID = '5b7f3c2e-8d41-4a6f-9e2b-1c3d4e5f6a7b';
const UNKNOWN_UUID = 'c0ffee00-1234-4abc-8def-0123456789ab';

const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`proxy-core e2e skipped: ${V2RAY} is missing (apt-get install v2ray)`);
const describeWithV2ray = hasV2ray ? describe : describe.skip;

describeWithV2ray('XrayCore with a real v2ray 4.34 on loopback', () => {
  let workDir: string;
  let httpServer: LocalHttpServer;
  let core: XrayCore;
  let client: ChildProcess | undefined;
  let allowedSocksPort: number;
  let unknownSocksPort: number;
  let apiPort: number;

  const fetchAs = (socksPort: number) => socksHttpGet(socksPort, httpServer.port, 2000);

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'scn-proxy-core-e2e-'));
    httpServer = await startHttpServer(BODY);
    const nodePort = await freePort();
    apiPort = await freePort();
    allowedSocksPort = await freePort();
    unknownSocksPort = await freePort();
    core = new XrayCore(
      {
        kind: 'v2ray',
        binary: V2RAY,
        workDir: path.join(workDir, 'core'),
        apiPort,
        inbound: { port: nodePort, listen: '127.0.0.1', security: 'none', network: 'tcp' },
        // The HTTP server the client fetches is on loopback.
        allowPrivateDestinations: true,
      },
      { restartInitialDelayMs: 200 },
    );
    await core.start([]);
    client = await startVlessClient(V2RAY, workDir, nodePort, [
      { socksPort: allowedSocksPort, uuid: ALLOWED_UUID },
      { socksPort: unknownSocksPort, uuid: UNKNOWN_UUID },
    ]);
  }, 20_000);

  afterAll(async () => {
    await core?.stop();
    await killAndWait(client);
    await httpServer?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('should report the running core with its version when started', () => {
    expect(core.status()).toEqual({
      state: 'running',
      kind: 'v2ray',
      version: '4.34.0',
      restartCount: 0,
    });
  });

  it('should refuse a client when its uuid is not allowed', async () => {
    await expect(fetchAs(allowedSocksPort)).rejects.toThrow();
  });

  it('should let the client through when reconcile allows its uuid', async () => {
    await core.reconcile([ALLOWED_UUID]);

    const result = await eventually(() => fetchAs(allowedSocksPort), 5000);
    expect(result).toEqual({ status: 200, body: BODY });
  });

  it('should count the allowed client traffic when it fetched a page', async () => {
    const traffic = await core.traffic();
    const counters = traffic.find((entry) => entry.clientUuid === ALLOWED_UUID);

    expect(counters).toBeDefined();
    expect(counters!.uplinkBytes).toBeGreaterThan(0n);
    expect(counters!.downlinkBytes).toBeGreaterThan(BigInt(BODY.length));
  });

  it('should never let an unknown uuid through when another uuid is allowed', async () => {
    await expect(fetchAs(unknownSocksPort)).rejects.toThrow();
  });

  it('should cut the client off when reconcile removes its uuid', async () => {
    await core.reconcile([]);

    await expect(fetchAs(allowedSocksPort)).rejects.toThrow();
    await expect(fetchAs(unknownSocksPort)).rejects.toThrow();
  });

  it('should restart the core and keep the allowed uuid when the core is killed', async () => {
    await core.reconcile([ALLOWED_UUID]);
    await eventually(() => fetchAs(allowedSocksPort), 5000);
    const firstPid = core.pid();

    process.kill(firstPid!, 'SIGKILL');

    await eventually(async () => {
      if (core.status().state !== 'running' || core.pid() === firstPid) throw new Error('down');
    }, 10_000);
    expect(core.status()).toMatchObject({ state: 'running', restartCount: 1 });
    const result = await eventually(() => fetchAs(allowedSocksPort), 5000);
    expect(result.body).toBe(BODY);
    await expect(fetchAs(unknownSocksPort)).rejects.toThrow();
  }, 20_000);

  it('should treat adding a present user and removing an absent one as success', async () => {
    const api = new CoreApiClient({ kind: 'v2ray', apiPort });
    try {
      expect(await api.addUser(VLESS_INBOUND_TAG, UNKNOWN_UUID)).toBe('added');
      expect(await api.addUser(VLESS_INBOUND_TAG, UNKNOWN_UUID)).toBe('already_present');
      expect(await api.removeUser(VLESS_INBOUND_TAG, UNKNOWN_UUID)).toBe('removed');
      expect(await api.removeUser(VLESS_INBOUND_TAG, UNKNOWN_UUID)).toBe('already_absent');
      await expect(api.addUser('no-such-inbound', UNKNOWN_UUID)).rejects.toThrow(/refused AddUser/);
    } finally {
      api.close();
    }
  });
});

describeWithV2ray('XrayCore when the core fails on its first start', () => {
  let workDir: string;
  let core: XrayCore | undefined;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'scn-proxy-core-first-'));
  });
  afterAll(async () => {
    await core?.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('should keep retrying and run once the core can start', async () => {
    // A core that crashes on its first run (say, the old one still holds the port), then works.
    const marker = path.join(workDir, 'crashed-once');
    const binary = path.join(workDir, 'flaky-v2ray');
    await writeFile(
      binary,
      [
        '#!/bin/sh',
        `[ "$1" = "-version" ] && exec ${V2RAY} -version`,
        `if [ ! -e '${marker}' ]; then touch '${marker}'; echo 'first start fails' >&2; exit 1; fi`,
        `exec ${V2RAY} "$@"`,
      ].join('\n'),
      { mode: 0o755 },
    );
    core = new XrayCore(
      {
        kind: 'v2ray',
        binary,
        workDir: path.join(workDir, 'core'),
        apiPort: await freePort(),
        inbound: { port: await freePort(), listen: '127.0.0.1', security: 'none', network: 'tcp' },
      },
      { restartInitialDelayMs: 200 },
    );
    await expect(core.start([ALLOWED_UUID])).rejects.toThrow();
    expect(core.status().state).toBe('failed');
    await eventually(async () => expect(core!.status().state).toBe('running'), 15_000);
    expect(existsSync(marker)).toBe(true);
  }, 30_000);
});
