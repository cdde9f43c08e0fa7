import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentConfigStore, readAgentConfig, writeAgentConfig } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { type DecoySite, nginxErrorPage, startDecoySite } from './decoy-site';
import { decoyFallbackDest, parseDecoyUpstream, probeDecoy, startConfiguredDecoy } from './decoy';

/** Sends raw bytes to the decoy and returns everything it answers until it closes or goes quiet. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(text);
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

function headersOf(answer: string): {
  status: string;
  names: string[];
  get: (n: string) => string | undefined;
  body: string;
} {
  const [head = ''] = answer.split('\r\n\r\n', 1);
  const [status = '', ...lines] = head.split('\r\n');
  const pairs = lines.map(
    (line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as const,
  );
  return {
    status,
    names: pairs.map(([name]) => name),
    get: (name) => pairs.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
    body: answer.slice(head.length + 4),
  };
}

describe('the decoy site', () => {
  let site: DecoySite;
  beforeAll(async () => {
    site = await startDecoySite({ modified: new Date('2024-03-05T10:20:30Z') });
  });
  afterAll(() => site.close());

  it("should answer / with a page and nginx's headers in nginx's order when asked like a browser", async () => {
    const answer = headersOf(
      await exchange(
        site.port,
        'GET / HTTP/1.1\r\nHost: node.example\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(answer.status).toBe('HTTP/1.1 200 OK');
    expect(answer.names).toEqual([
      'Server',
      'Date',
      'Content-Type',
      'Content-Length',
      'Last-Modified',
      'Connection',
      'ETag',
      'Accept-Ranges',
    ]);
    expect(answer.get('Server')).toBe('nginx');
    expect(answer.get('Last-Modified')).toBe('Tue, 05 Mar 2024 10:20:30 GMT');
    const length = Buffer.byteLength(answer.body);
    expect(Number(answer.get('Content-Length'))).toBe(length);
    // nginx's ETag: "<mtime hex>-<size hex>".
    const mtime = Date.parse('2024-03-05T10:20:30Z') / 1000;
    expect(answer.get('ETag')).toBe(`"${mtime.toString(16)}-${length.toString(16)}"`);
    expect(answer.body).toContain('<title>');
    // No header Node adds by itself that nginx never sends.
    expect(answer.names).not.toContain('Keep-Alive');
  });

  it("should answer any other path with nginx's 404 page", async () => {
    const answer = headersOf(
      await exchange(
        site.port,
        'GET /admin/login.php HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(answer.status).toBe('HTTP/1.1 404 Not Found');
    expect(answer.body).toBe(nginxErrorPage(404));
    expect(answer.body).toContain('<hr><center>nginx</center>');
  });

  it('should answer 405 to a POST on a page and headers only to HEAD', async () => {
    const post = headersOf(
      await exchange(
        site.port,
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(post.status).toBe('HTTP/1.1 405 Method Not Allowed');
    const head = headersOf(
      await exchange(site.port, 'HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    expect(head.status).toBe('HTTP/1.1 200 OK');
    expect(head.body).toBe('');
  });

  it("should answer bytes that are not HTTP with nginx's 400 page and close", async () => {
    const answer = headersOf(
      await exchange(site.port, '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n'),
    );
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.get('Server')).toBe('nginx');
    expect(answer.get('Connection')).toBe('close');
    expect(answer.body).toBe(nginxErrorPage(400));
  });

  it('should be found by probeDecoy with its status line', async () => {
    await expect(probeDecoy(`127.0.0.1:${site.port}`, 'node.example')).resolves.toEqual({
      ok: true,
      detail: 'HTTP/1.1 200 OK',
    });
  });
});

describe('parseDecoyUpstream', () => {
  it.each([
    ['127.0.0.1:8080', '127.0.0.1:8080'],
    ['http://127.0.0.1:8080', '127.0.0.1:8080'],
    ['http://site.example', 'site.example:80'],
    ['[::1]:8080', '[::1]:8080'],
  ])('should take %s as %s', (input, dest) => {
    expect(parseDecoyUpstream(input)).toBe(dest);
  });

  it.each([
    ['https://site.example', /HTTPS server cannot read/],
    ['http://site.example/blog', /not a path/],
    ['site.example', /host:port/],
    ['site.example:70000', /host:port/],
  ])('should refuse %s with why', (input, why) => {
    expect(() => parseDecoyUpstream(input)).toThrow(why);
  });
});

describe('startConfiguredDecoy', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'scn-decoy-store-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function store(decoy?: { upstream?: string; port?: number }) {
    const file = path.join(dir, 'config.json');
    await writeAgentConfig(file, sampleConfig({ decoy }));
    return new AgentConfigStore(file, await readAgentConfig(file));
  }

  it('should keep the port it got and take it again on the next start', async () => {
    const first = await store();
    const site = (await startConfiguredDecoy(first))!;
    expect(first.current.decoy).toEqual({ port: site.port });
    expect((await readAgentConfig(first.file)).decoy).toEqual({ port: site.port });
    expect(decoyFallbackDest(first.current)).toBe(`127.0.0.1:${site.port}`);
    await site.close();
    const again = (await startConfiguredDecoy(await store({ port: site.port })))!;
    expect(again.port).toBe(site.port);
    await again.close();
  });

  it('should move to a free port and keep that one when its port is taken', async () => {
    const taken = await startDecoySite();
    const moved = await store({ port: taken.port });
    const site = (await startConfiguredDecoy(moved))!;
    expect(site.port).not.toBe(taken.port);
    expect(moved.current.decoy).toEqual({ port: site.port });
    await site.close();
    await taken.close();
  });

  it("should start nothing when the operator's site answers probers", async () => {
    const withUpstream = await store({ upstream: '127.0.0.1:8080' });
    expect(await startConfiguredDecoy(withUpstream)).toBeNull();
    expect(decoyFallbackDest(withUpstream.current)).toBe('127.0.0.1:8080');
  });
});
