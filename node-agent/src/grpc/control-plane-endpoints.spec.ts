import { randomUUID } from 'node:crypto';
import {
  type Endpoint,
  EndpointRotation,
  expandEndpoints,
  type Lookup,
  movesOn,
  parseControlPlaneList,
  spreadIndex,
  systemLookup,
} from './control-plane-endpoints';

/** A resolver from a table (tests never ask real DNS servers). */
function tableLookup(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup: Lookup = (host) => {
    asked.push(host);
    const addresses = table[host];
    return addresses ? Promise.resolve([...addresses]) : Promise.reject(new Error('ENOTFOUND'));
  };
  return { lookup, asked };
}

const targets = (endpoints: Endpoint[]) => endpoints.map((e) => e.target);

describe('control plane endpoints', () => {
  it('should read one host:port or several separated by commas, and refuse anything else', () => {
    expect(parseControlPlaneList('cp.example.com:50051')).toEqual([
      { host: 'cp.example.com', port: 50051 },
    ]);
    expect(parseControlPlaneList('10.1.0.5:50051, [2001:db8::5]:50051 ,cp:7')).toEqual([
      { host: '10.1.0.5', port: 50051 },
      { host: '2001:db8::5', port: 50051 },
      { host: 'cp', port: 7 },
    ]);
    expect(parseControlPlaneList('a:1,a:1,b:2')).toEqual([
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
    ]);
    for (const bad of ['', ',', 'a:1,b', 'https://cp:1', 'a:1;b:2', 'cp:99999', 'a:1 b:2']) {
      expect(parseControlPlaneList(bad)).toBeNull();
    }
  });

  it('should start each node at an endpoint of its own, the same every time, spread over all', () => {
    const id = randomUUID();
    expect(spreadIndex(id, 3)).toBe(spreadIndex(id, 3));
    expect(spreadIndex(id, 1)).toBe(0);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i += 1) counts[spreadIndex(randomUUID(), 3)]! += 1;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });

  it('should count each address of a name as an endpoint, sorted, and keep a name that does not resolve', async () => {
    const { lookup } = tableLookup({ 'cp.scn.test': ['127.0.0.3', '127.0.0.2', '::1'] });
    const endpoints = await expandEndpoints(
      parseControlPlaneList('cp.scn.test:7000,127.0.0.9:7001,gone.scn.test:7002,127.0.0.2:7000')!,
      lookup,
    );
    expect(endpoints).toEqual([
      { target: '127.0.0.2:7000', name: 'cp.scn.test', port: 7000 },
      { target: '127.0.0.3:7000', name: 'cp.scn.test', port: 7000 },
      { target: '[::1]:7000', name: 'cp.scn.test', port: 7000 },
      { target: '127.0.0.9:7001', name: '127.0.0.9', port: 7001 },
      { target: 'gone.scn.test:7002', name: 'gone.scn.test', port: 7002 },
    ]);
  });

  it('should look localhost up through the system resolver (/etc/hosts)', async () => {
    const endpoints = await expandEndpoints(parseControlPlaneList('localhost:7000')!, systemLookup);
    expect(endpoints.length).toBeGreaterThan(0);
    for (const endpoint of endpoints) {
      expect(endpoint.name).toBe('localhost');
      expect(endpoint.target).toMatch(/^(127\.\d+\.\d+\.\d+|\[::1\]):7000$/);
    }
  });

  it('should tell a gone endpoint from a refused request', () => {
    expect([1, 4, 14].every((code) => movesOn({ code }))).toBe(true);
    expect(movesOn(new Error('WatchClients stream ended'))).toBe(true);
    expect([3, 5, 7, 12, 16].some((code) => movesOn({ code }))).toBe(false);
  });
});

describe('EndpointRotation', () => {
  const list = parseControlPlaneList('127.0.0.1:1,127.0.0.1:2,127.0.0.1:3')!;

  it('should start at the node id’s endpoint and move to the next one once per failure', async () => {
    const key = randomUUID();
    const rotation = new EndpointRotation(list, { key });
    const moves: string[] = [];
    rotation.onMove((from, to) => moves.push(`${from.target}>${to.target}`));
    const first = await rotation.current();
    expect(first.target).toBe(`127.0.0.1:${spreadIndex(key, 3) + 1}`);
    // The report channel and the client stream fail together on one dead replica: one move.
    rotation.failed(first);
    rotation.failed(first);
    const second = await rotation.current();
    expect(second.target).toBe(`127.0.0.1:${((spreadIndex(key, 3) + 1) % 3) + 1}`);
    expect(moves).toEqual([`${first.target}>${second.target}`]);
  });

  it('should return only to the preferred endpoint, and only when away from it', async () => {
    const key = randomUUID();
    const rotation = new EndpointRotation(list, { key });
    const moves: string[] = [];
    rotation.onMove((from, to, reason) => moves.push(`${reason} ${from.port}>${to.port}`));
    expect(rotation.preferred()).toBeNull();
    const home = await rotation.current();
    expect(rotation.preferred()).toEqual(home);
    expect(rotation.onPreferred).toBe(true);
    expect(rotation.returnTo(home)).toBe(false);
    rotation.failed(home);
    const away = await rotation.current();
    expect(rotation.onPreferred).toBe(false);
    // Another endpoint answering is no reason to move.
    const third = (await rotation.all()).find(
      (e) => e.target !== home.target && e.target !== away.target,
    )!;
    expect(rotation.returnTo(third)).toBe(false);
    expect(rotation.returnTo(home)).toBe(true);
    expect((await rotation.current()).target).toBe(home.target);
    expect(moves).toEqual([
      `failed ${home.port}>${away.port}`,
      `returned ${away.port}>${home.port}`,
    ]);
  });

  it('should start at the first address while enrolling (no node id yet)', async () => {
    expect((await new EndpointRotation(list).current()).target).toBe('127.0.0.1:1');
  });

  it('should look the names up again after a whole round failed', async () => {
    const table: Record<string, string[]> = { 'cp.scn.test': ['127.0.0.2', '127.0.0.3'] };
    const { lookup, asked } = tableLookup(table);
    const rotation = new EndpointRotation(parseControlPlaneList('cp.scn.test:7000')!, { lookup });
    expect(targets([await rotation.current()])).toEqual(['127.0.0.2:7000']);
    expect(rotation.size).toBe(2);
    rotation.failed(await rotation.current());
    expect((await rotation.current()).target).toBe('127.0.0.3:7000');
    expect(asked).toHaveLength(1);
    // The name now points at a replacement beside the survivor.
    table['cp.scn.test'] = ['127.0.0.3', '127.0.0.4'];
    rotation.failed(await rotation.current());
    const next = await rotation.current();
    expect(asked).toHaveLength(2);
    expect(rotation.size).toBe(2);
    rotation.failed(next);
    expect(targets([next, await rotation.current()]).sort()).toEqual([
      '127.0.0.3:7000',
      '127.0.0.4:7000',
    ]);
  });

  it('should not look up again while contacts keep succeeding between failures', async () => {
    const { lookup, asked } = tableLookup({ 'cp.scn.test': ['127.0.0.2', '127.0.0.3'] });
    const rotation = new EndpointRotation(parseControlPlaneList('cp.scn.test:7000')!, { lookup });
    for (let i = 0; i < 5; i += 1) {
      const endpoint = await rotation.current();
      rotation.failed(endpoint);
      rotation.contact(await rotation.current());
    }
    expect(asked).toHaveLength(1);
  });

  it('should tell every listener of a contact, and not move with a single endpoint', async () => {
    const rotation = new EndpointRotation(parseControlPlaneList('127.0.0.1:1')!);
    const heard: string[] = [];
    const off = rotation.onContact((endpoint) => heard.push(endpoint.target));
    rotation.onMove(() => heard.push('moved'));
    const only = await rotation.current();
    rotation.contact(only);
    rotation.failed(only);
    off();
    rotation.contact(only);
    expect(heard).toEqual(['127.0.0.1:1']);
    expect((await rotation.current()).target).toBe('127.0.0.1:1');
  });
});
