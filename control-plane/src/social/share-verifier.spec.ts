import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressAllowed, checkPost } from './share-verifier';

/**
 * The post check against local HTTP servers on loopback (never another address): the statuses,
 * redirects, and the address policy (a redirect off the configured base's host is refused before
 * anything is sent).
 */
describe('checkPost', () => {
  let base: http.Server;
  let other: http.Server;
  let otherHits = 0;
  let baseUrl: string;
  let otherUrl: string;

  beforeAll(async () => {
    other = http.createServer((_req, res) => {
      otherHits += 1;
      res.writeHead(404).end();
    });
    base = http.createServer((req, res) => {
      const url = req.url ?? '';
      if (url === '/gone') res.writeHead(404).end();
      else if (url === '/deleted') res.writeHead(410).end();
      else if (url === '/error') res.writeHead(503).end();
      else if (url === '/redirect-gone') res.writeHead(302, { location: '/gone' }).end();
      else if (url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (url === '/elsewhere') res.writeHead(302, { location: `${otherUrl}/gone` }).end();
      else if (url === '/big') {
        res.writeHead(200);
        res.end(Buffer.alloc(1024 * 1024, 120));
      } else if (url === '/slow') {
        // Never answers within the timeout.
        setTimeout(() => res.writeHead(200).end(), 3_000).unref();
      } else res.writeHead(200).end('post');
    });
    await new Promise<void>((resolve) => base.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(base.address() as AddressInfo).port}`;
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    base.closeAllConnections();
    await new Promise((resolve) => base.close(resolve));
    await new Promise((resolve) => other.close(resolve));
  });

  const settings = () => ({ baseUrl, timeoutMs: 500 });
  const at = (path: string) => new URL(path, baseUrl);

  it.each([
    ['/i/status/1', 'up'],
    ['/gone', 'gone'],
    ['/deleted', 'gone'],
    ['/error', 'unknown'],
    ['/redirect-gone', 'gone'],
    ['/loop', 'unknown'],
    ['/big', 'up'],
    ['/slow', 'unknown'],
  ])('%s is %s', async (path, expected) => {
    expect(await checkPost(at(path), settings())).toBe(expected);
  });

  it('should refuse a redirect to another host, even on loopback, before sending', async () => {
    expect(await checkPost(at('/elsewhere'), settings())).toBe('unknown');
    expect(otherHits).toBe(0);
  });

  it('should refuse loopback without a configured base', async () => {
    expect(await checkPost(at('/gone'), { baseUrl: null, timeoutMs: 500 })).toBe('unknown');
  });
});

describe('addressAllowed', () => {
  it.each([
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['127.0.0.1', false],
    ['::1', false],
    ['::ffff:10.0.0.1', false],
    ['fd00::1', false],
    ['93.184.216.34', true],
    ['2606:2800:220:1::1', true],
  ])('%s allowed: %s', (address, allowed) => {
    expect(addressAllowed(address, false)).toBe(allowed);
  });

  it('should allow loopback only when asked', () => {
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
  });
});
