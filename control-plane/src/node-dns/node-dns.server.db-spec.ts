import { randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { repositoryDatabase } from '../../test/support/server-rows';
import { systemClock } from '../common/clock';
import type { AppConfig, NodeDnsSettings } from '../config/app-config';
import { NodeAddressCache } from './node-address-cache';
import { NodeDnsRepository } from './node-dns.repository';
import { MAX_TCP_CONNECTIONS_PER_SOURCE, NodeDnsServer } from './node-dns.server';
import { newHostName } from './node-host-name';

const t = repositoryDatabase();
const DOMAIN = 'nodes.scn.test';

async function insertNode(columns: {
  host: string | null;
  enrolledHost?: string | null;
  banned?: boolean;
}): Promise<{ id: string; name: string }> {
  const owner = randomUUID();
  await t.db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
  const id = randomUUID();
  const hostName = newHostName();
  await t.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
                          host_name, enrolled_host, banned_at)
     VALUES ($1, $2, 'n', 'agent', 'tier1', $3, $4, 443, '{}', $5, $6,
             CASE WHEN $7 THEN now() END)`,
    [
      id,
      owner,
      'a'.repeat(64),
      columns.host,
      hostName,
      columns.enrolledHost ?? null,
      columns.banned ?? false,
    ],
  );
  return { id, name: `${hostName}.${DOMAIN}` };
}

async function startServer(settings: Partial<NodeDnsSettings> = {}) {
  const config = {
    nodeDns: {
      domain: DOMAIN,
      listen: { host: '127.0.0.1', port: 0 },
      nameServers: ['ns1.scn.test'],
      hostmaster: 'hostmaster.scn.test',
      ...settings,
    },
  } as AppConfig;
  const cache = new NodeAddressCache(new NodeDnsRepository(t.dataSource), systemClock);
  const server = new NodeDnsServer(config, cache);
  await server.onApplicationBootstrap();
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  // (Node aborts the whole process on a server at port 0: only a bound server is set.)
  if (server.port) resolver.setServers([`127.0.0.1:${server.port}`]);
  return { server, cache, resolver };
}

/** One query over TCP (RFC 1035 §4.2.2 framing), as a resolver retrying a truncated answer does. */
function askOverTcp(port: number, name: string, type: 'A' | 'NS'): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('connect', () =>
      socket.write(
        dnsPacket.streamEncode({
          type: 'query',
          id: 7,
          questions: [{ name, type, class: 'IN' }],
        }),
      ),
    );
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        socket.end();
        resolve(dnsPacket.streamDecode(received) as DecodedPacket);
      }
    });
    socket.on('error', reject);
  });
}

describe('NodeDnsServer', () => {
  it("should answer a node's name with its address over UDP, from the database", async () => {
    const v4 = await insertNode({ host: '203.0.113.10' });
    const v6 = await insertNode({ host: '2001:db8::10' });
    const enrolled = await insertNode({ host: null, enrolledHost: '198.51.100.10' });
    const { server, resolver } = await startServer();
    try {
      expect(await resolver.resolve4(v4.name, { ttl: true })).toEqual([
        { address: '203.0.113.10', ttl: 60 },
      ]);
      expect(await resolver.resolve6(v6.name.toUpperCase())).toEqual(['2001:db8::10']);
      // Before its first report, the address the agent gave at enrollment.
      expect(await resolver.resolve4(enrolled.name)).toEqual(['198.51.100.10']);
      expect(await resolver.resolveSoa(DOMAIN)).toMatchObject({
        nsname: 'ns1.scn.test',
        hostmaster: 'hostmaster.scn.test',
        minttl: 60,
      });
      expect(await resolver.resolveNs(DOMAIN)).toEqual(['ns1.scn.test']);
    } finally {
      await server.onApplicationShutdown();
    }
  });

  it('should answer NXDOMAIN for unknown and banned nodes, and REFUSED outside its zone', async () => {
    const banned = await insertNode({ host: '203.0.113.11', banned: true });
    const { server, resolver } = await startServer();
    try {
      await expect(resolver.resolve4(`${newHostName()}.${DOMAIN}`)).rejects.toMatchObject({
        code: 'ENOTFOUND',
      });
      await expect(resolver.resolve4(banned.name)).rejects.toMatchObject({ code: 'ENOTFOUND' });
      await expect(resolver.resolve4('example.com')).rejects.toMatchObject({ code: 'EREFUSED' });
    } finally {
      await server.onApplicationShutdown();
    }
  });

  it('should answer over TCP, and a client retries a truncated UDP answer there', async () => {
    const node = await insertNode({ host: '203.0.113.12' });
    // Enough NS names that the apex's answer passes 512 bytes: truncated over UDP.
    const nameServers = Array.from(
      { length: 12 },
      (_, i) => `ns${i}.${'a'.repeat(50)}.${'b'.repeat(50)}.example.org`,
    );
    const { server, resolver } = await startServer({ nameServers });
    try {
      const tcp = await askOverTcp(server.port, node.name, 'A');
      expect(tcp.answers).toEqual([expect.objectContaining({ type: 'A', data: '203.0.113.12' })]);
      expect((await resolver.resolveNs(DOMAIN)).sort()).toEqual([...nameServers].sort());
    } finally {
      await server.onApplicationShutdown();
    }
  });

  it('should answer the new address once a move is forgotten, and the old one until then', async () => {
    const node = await insertNode({ host: '203.0.113.13' });
    const { server, cache, resolver } = await startServer();
    try {
      expect(await resolver.resolve4(node.name)).toEqual(['203.0.113.13']);
      await t.db.query(`UPDATE servers SET host = '203.0.113.14' WHERE id = $1`, [node.id]);
      // Within the cache's lifetime, the answer read before.
      expect(await resolver.resolve4(node.name)).toEqual(['203.0.113.13']);
      cache.forget(node.name.split('.')[0]!);
      expect(await resolver.resolve4(node.name)).toEqual(['203.0.113.14']);
    } finally {
      await server.onApplicationShutdown();
    }
  });

  it('should survive random datagrams and keep answering', async () => {
    const node = await insertNode({ host: '203.0.113.15' });
    const { server, resolver } = await startServer();
    const { createSocket } = await import('node:dgram');
    const socket = createSocket('udp4');
    try {
      for (let i = 0; i < 200; i += 1) {
        const junk = Buffer.from(Array.from({ length: i % 90 }, () => (Math.random() * 256) | 0));
        await new Promise<void>((resolve) =>
          socket.send(junk, server.port, '127.0.0.1', () => resolve()),
        );
      }
      expect(await resolver.resolve4(node.name)).toEqual(['203.0.113.15']);
    } finally {
      socket.close();
      await server.onApplicationShutdown();
    }
  });

  it('should close TCP connections past the per-source bound and keep serving the others', async () => {
    const node = await insertNode({ host: '203.0.113.16' });
    const { server } = await startServer();
    const open = await Promise.all(
      Array.from(
        { length: MAX_TCP_CONNECTIONS_PER_SOURCE },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    try {
      // Let the server register them before one more arrives.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await new Promise<boolean>((resolve) => {
        const extra = connect(server.port, '127.0.0.1');
        const timer = setTimeout(() => {
          extra.destroy();
          resolve(false);
        }, 2000);
        const closed = () => {
          clearTimeout(timer);
          resolve(true);
        };
        extra.on('close', closed);
        extra.on('error', closed);
      });
      expect(refused).toBe(true);
      open[0]!.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const reply = await askOverTcp(server.port, node.name, 'A');
      expect(reply.answers?.map((a) => 'data' in a && a.data)).toEqual(['203.0.113.16']);
    } finally {
      for (const socket of open) socket.destroy();
      await server.onApplicationShutdown();
    }
  });
});

describe('NodeDnsServer start-up', () => {
  it('should refuse to start on a port another process holds, and start nothing without a listen address', async () => {
    const { createSocket } = await import('node:dgram');
    const holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', () => resolve()));
    const taken = holder.address().port;
    try {
      await expect(startServer({ listen: { host: '127.0.0.1', port: taken } })).rejects.toThrow(
        /EADDRINUSE/,
      );
    } finally {
      holder.close();
    }
    const { server } = await startServer({ listen: null });
    expect(server.port).toBe(0);
    await server.onApplicationShutdown();
  });
});
