import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { classifyNetworkError, checkEndpoint, type EndpointCheck } from './vless-client';
import { decodeFrame, encodeClientFrame } from './vless-websocket';

const UUID = '8c1a1d1e-6c1b-4d1c-9a1a-1a1a1a1a1a1a';
const servers: Array<net.Server> = [];
const accepted: net.Socket[] = [];
let key: string;
let cert: string;
let pin: string;

beforeAll(() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vless-client-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=probe.test',
    ],
    { stdio: 'ignore' },
  );
  key = readFileSync(path.join(dir, 'key.pem'), 'utf8');
  cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  pin = createHash('sha256').update(new X509Certificate(cert).raw).digest('hex');
});

afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: net.Server): Promise<number> {
  servers.push(server);
  server.on('connection', (socket: net.Socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function check(port: number, overrides: Partial<EndpointCheck> = {}): EndpointCheck {
  return {
    host: '127.0.0.1',
    port,
    uuid: UUID,
    security: 'none',
    network: 'tcp',
    serverName: null,
    target: { host: '127.0.0.1', port: 9, tls: false, path: '/' },
    timeoutMs: 3_000,
    ...overrides,
  };
}

function errno(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyNetworkError', () => {
  it.each([
    ['ECONNREFUSED', 'connect', 'refused'],
    ['ECONNRESET', 'connect', 'reset'],
    ['ECONNRESET', 'handshake', 'reset'],
    ['EHOSTUNREACH', 'connect', 'unreachable'],
    ['ENETUNREACH', 'connect', 'unreachable'],
    ['ETIMEDOUT', 'connect', 'timeout'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'handshake', 'wrong_certificate'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'handshake', 'wrong_certificate'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'handshake', 'wrong_certificate'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'handshake', 'tls_alert'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'handshake', 'tls_alert'],
    ['EPROTO', 'vless', 'closed'],
  ] as const)('should classify %s during %s as %s', (code, stage, expected) => {
    expect(classifyNetworkError(errno(code), stage)).toBe(expected);
  });

  it('should call an orderly close before the TLS handshake ends closed, not reset', () => {
    const error = errno(
      'ECONNRESET',
      'Client network socket disconnected before secure TLS connection was established',
    );
    expect(classifyNetworkError(error, 'handshake')).toBe('closed');
  });
});

describe('checkEndpoint against loopback stand-ins', () => {
  it('should answer refused when nothing listens', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => {
        const port = (server.address() as net.AddressInfo).port;
        server.close(() => resolve(port));
      });
    });
    const result = await checkEndpoint(check(closed));
    expect(result).toMatchObject({ errorClass: 'refused', tcpOk: false, handshakeOk: false });
  });

  it('should answer reset when the server resets right after the TLS ClientHello', async () => {
    let hello = 0;
    const port = await listen(
      net.createServer((socket) =>
        socket.once('data', (data) => {
          hello = data.length;
          socket.resetAndDestroy();
        }),
      ),
    );
    const result = await checkEndpoint(check(port, { security: 'tls', certificateSha256: pin }));
    expect(hello).toBeGreaterThan(100);
    expect(result).toMatchObject({ errorClass: 'reset', tcpOk: true, handshakeOk: false });
    expect(result.bytesSent).toBe(hello);
  });

  it('should answer reset when the connection is reset after the VLESS request', async () => {
    const port = await listen(
      net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy())),
    );
    const result = await checkEndpoint(check(port));
    expect(result).toMatchObject({ errorClass: 'reset', tcpOk: true, handshakeOk: true });
  });

  it('should answer closed when the server closes in order after the ClientHello', async () => {
    const port = await listen(
      net.createServer((socket) => socket.once('data', () => socket.end())),
    );
    const result = await checkEndpoint(check(port, { security: 'tls', certificateSha256: pin }));
    expect(result).toMatchObject({ errorClass: 'closed', tcpOk: true, handshakeOk: false });
  });

  it('should answer timeout when the server accepts and never answers', async () => {
    const port = await listen(net.createServer(() => undefined));
    const result = await checkEndpoint(check(port, { security: 'tls', timeoutMs: 300 }));
    expect(result).toMatchObject({ errorClass: 'timeout', tcpOk: true, handshakeOk: false });
    expect(result.totalMs).toBeGreaterThanOrEqual(290);
  });

  it('should answer closed (plain) when the server drops the VLESS request', async () => {
    const port = await listen(
      net.createServer((socket) => socket.once('data', () => socket.end())),
    );
    const result = await checkEndpoint(check(port));
    expect(result).toMatchObject({ errorClass: 'closed', tcpOk: true, handshakeOk: true });
  });

  it('should answer not_vless when an HTTP server answers', async () => {
    const port = await listen(http.createServer((_q, response) => response.end('hi')));
    const result = await checkEndpoint(check(port));
    expect(result).toMatchObject({ errorClass: 'not_vless', vlessOk: false });
    expect(result.bytesReceived).toBeGreaterThan(0);
  });

  it('should answer not_vless when a WebSocket upgrade is refused', async () => {
    const port = await listen(http.createServer((_q, response) => response.writeHead(404).end()));
    const result = await checkEndpoint(check(port, { network: 'ws', path: '/x' }));
    expect(result).toMatchObject({ errorClass: 'not_vless', tcpOk: true });
  });

  describe('TLS', () => {
    let port: number;
    beforeAll(async () => {
      port = await listen(tls.createServer({ key, cert }, (socket) => socket.end('hello')));
    });

    it('should trust the pin instead of CAs, and go on to the VLESS layer', async () => {
      const result = await checkEndpoint(check(port, { security: 'tls', certificateSha256: pin }));
      // The stand-in answers "hello": past the handshake, not VLESS.
      expect(result).toMatchObject({ errorClass: 'not_vless', handshakeOk: true });
    });

    it('should answer reset when the connection is reset after the handshake', async () => {
      const resetting = await listen(
        net.createServer((raw) => {
          const secure = new tls.TLSSocket(raw, { isServer: true, key, cert });
          secure.once('data', () => raw.resetAndDestroy());
        }),
      );
      const result = await checkEndpoint(
        check(resetting, { security: 'tls', certificateSha256: pin }),
      );
      expect(result).toMatchObject({ errorClass: 'reset', handshakeOk: true });
    });

    it('should answer wrong_certificate for another pin', async () => {
      const other = 'ab'.repeat(32);
      const result = await checkEndpoint(
        check(port, { security: 'tls', certificateSha256: other }),
      );
      expect(result).toMatchObject({ errorClass: 'wrong_certificate', handshakeOk: false });
    });

    it('should answer wrong_certificate without a pin when no CA vouches for it', async () => {
      const result = await checkEndpoint(check(port, { security: 'tls' }));
      expect(result).toMatchObject({ errorClass: 'wrong_certificate' });
    });

    it('should take any certificate for REALITY and leave VLESS untested', async () => {
      const result = await checkEndpoint(
        check(port, { security: 'reality', serverName: 'x.test' }),
      );
      expect(result).toMatchObject({
        errorClass: 'vless_untested',
        handshakeOk: true,
        vlessOk: false,
      });
    });

    it('should answer tls_alert when the server refuses the handshake', async () => {
      const strict = await listen(
        tls.createServer({ key, cert, minVersion: 'TLSv1.3', ciphers: 'TLS_AES_128_CCM_8_SHA256' }),
      );
      const result = await checkEndpoint(
        check(strict, { security: 'tls', certificateSha256: pin }),
      );
      expect(result).toMatchObject({ errorClass: 'tls_alert', tcpOk: true, handshakeOk: false });
    });
  });
});

describe('WebSocket frames', () => {
  it('should round-trip a masked client frame of each length form', () => {
    for (const length of [5, 300, 70_000]) {
      const payload = Buffer.alloc(length, 7);
      const decoded = decodeFrame(Buffer.concat([encodeClientFrame(2, payload), Buffer.from([1])]));
      expect(decoded?.frame.opcode).toBe(2);
      expect(decoded?.frame.payload.equals(payload)).toBe(true);
      expect(decoded?.rest).toEqual(Buffer.from([1]));
    }
  });

  it('should wait for more bytes when a frame is incomplete', () => {
    const frame = encodeClientFrame(2, Buffer.alloc(300));
    expect(decodeFrame(frame.subarray(0, 100))).toBeNull();
  });
});
