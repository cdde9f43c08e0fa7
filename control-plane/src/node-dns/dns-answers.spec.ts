import { randomBytes } from 'node:crypto';
import * as dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import { answerMessage, type LookupNode, MAX_UDP_SIZE, type NodeZone } from './dns-answers';
import type { NamedNode } from './node-dns.repository';

/** dns-packet decodes the rcode too; its types leave it out. */
type Reply = DecodedPacket & { rcode: string };
const decode = (message: Buffer): Reply => dnsPacket.decode(message) as Reply;

const zone: NodeZone = {
  domain: 'nodes.example.net',
  nameServers: ['ns1.example.net', 'ns2.example.net'],
  hostmaster: 'hostmaster.example.net',
  serial: 2026112801,
};
const V4 = 'n0000000000000004';
const V6 = 'n0000000000000006';
const NAMED = 'n00000000000000aa';
const SELF = 'n00000000000000bb';
const NONE = 'n00000000000000cc';
const nodes = new Map<string, NamedNode>([
  [V4, { addresses: ['203.0.113.4'] }],
  [V6, { addresses: ['2001:db8::6'] }],
  [NAMED, { addresses: ['vpn.operator.example'] }],
  // Reported its own node name: the address it gave at enrollment answers instead.
  [SELF, { addresses: [`${SELF}.nodes.example.net`, '203.0.113.9'] }],
  [NONE, { addresses: [] }],
]);
const asked: string[] = [];
const lookup: LookupNode = async (name) => {
  asked.push(name);
  return nodes.get(name) ?? null;
};

function query(name: string, type: string, extra: Partial<Packet> = {}): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: 4242,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: type as 'A', class: 'IN' }],
    ...extra,
  });
}

async function ask(message: Buffer, transport: 'udp' | 'tcp' = 'udp'): Promise<Reply> {
  const reply = await answerMessage(message, transport, zone, lookup);
  if (!reply) throw new Error('no reply');
  return decode(reply);
}

const data = (answers: Answer[] | undefined) => (answers ?? []).map((a) => 'data' in a && a.data);

beforeEach(() => (asked.length = 0));

describe('answerMessage', () => {
  it('should answer A with the IPv4 address of a node, authoritatively, with TTL 60', async () => {
    const reply = await ask(query(`${V4}.nodes.example.net`, 'A'));
    expect(reply).toMatchObject({ id: 4242, rcode: 'NOERROR', flag_aa: true, flag_ra: false });
    expect(reply.flag_rd).toBe(true);
    expect(reply.answers).toEqual([
      expect.objectContaining({ type: 'A', name: `${V4}.nodes.example.net`, ttl: 60 }),
    ]);
    expect(data(reply.answers)).toEqual(['203.0.113.4']);
  });

  it('should answer AAAA for an IPv6 node and no data (with the SOA) for the other family', async () => {
    const aaaa = await ask(query(`${V6}.nodes.example.net`, 'AAAA'));
    expect(data(aaaa.answers)).toEqual(['2001:db8::6']);
    const a = await ask(query(`${V6}.nodes.example.net`, 'A'));
    expect(a.rcode).toBe('NOERROR');
    expect(a.answers).toEqual([]);
    expect(a.authorities?.map((r) => r.type)).toEqual(['SOA']);
    const aaaaOfV4 = await ask(query(`${V4}.nodes.example.net`, 'AAAA'));
    expect(aaaaOfV4.answers).toEqual([]);
  });

  it('should echo the question in the case it was asked and match names case-insensitively', async () => {
    const name = `${V4.toUpperCase()}.NoDeS.ExAmPlE.NeT`;
    const reply = await ask(query(name, 'A'));
    expect(reply.questions?.[0]?.name).toBe(name);
    expect(data(reply.answers)).toEqual(['203.0.113.4']);
    expect(asked).toEqual([V4]);
  });

  it("should answer a CNAME to the operator's own host name for any type", async () => {
    for (const type of ['A', 'AAAA']) {
      const reply = await ask(query(`${NAMED}.nodes.example.net`, type));
      expect(reply.answers).toEqual([
        expect.objectContaining({ type: 'CNAME', data: 'vpn.operator.example', ttl: 60 }),
      ]);
    }
  });

  it('should never point a node at a name of its own zone, using the next address known', async () => {
    const reply = await ask(query(`${SELF}.nodes.example.net`, 'A'));
    expect(data(reply.answers)).toEqual(['203.0.113.9']);
  });

  it('should answer no data for a node that gave no address yet', async () => {
    const reply = await ask(query(`${NONE}.nodes.example.net`, 'A'));
    expect(reply).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(reply.authorities?.map((r) => r.type)).toEqual(['SOA']);
  });

  it('should answer NXDOMAIN with the SOA for unknown, malformed and deeper names', async () => {
    for (const name of [
      'n0123456789abcdef.nodes.example.net',
      'www.nodes.example.net',
      `x.${V4}.nodes.example.net`,
    ]) {
      const reply = await ask(query(name, 'A'));
      expect(reply.rcode).toBe('NXDOMAIN');
      expect(reply.flag_aa).toBe(true);
      expect(reply.authorities).toEqual([
        expect.objectContaining({
          type: 'SOA',
          name: 'nodes.example.net',
          data: expect.objectContaining({ mname: 'ns1.example.net', minimum: 60 }),
        }),
      ]);
    }
    // Names that cannot be a node's are not looked up.
    expect(asked).toEqual(['n0123456789abcdef']);
  });

  it('should answer SOA, NS and ANY at the apex, and no data for other types there', async () => {
    const soa = await ask(query('nodes.example.net', 'SOA'));
    expect(soa.answers).toEqual([
      expect.objectContaining({
        type: 'SOA',
        data: expect.objectContaining({
          rname: 'hostmaster.example.net',
          serial: 2026112801,
        }),
      }),
    ]);
    const ns = await ask(query('NODES.example.net.', 'NS'));
    expect(data(ns.answers)).toEqual(['ns1.example.net', 'ns2.example.net']);
    const any = await ask(query('nodes.example.net', 'ANY'));
    expect(any.answers?.map((a) => a.type)).toEqual(['SOA', 'NS', 'NS']);
    const a = await ask(query('nodes.example.net', 'A'));
    expect(a).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('should refuse names outside the zone (no recursion) and other classes', async () => {
    for (const name of ['example.net', 'evilnodes.example.net', 'google.com']) {
      const reply = await ask(query(name, 'A'));
      expect(reply).toMatchObject({ rcode: 'REFUSED', flag_aa: false, answers: [] });
    }
    const chaos = await ask(
      dnsPacket.encode({
        type: 'query',
        id: 1,
        questions: [{ name: 'version.bind', type: 'TXT', class: 'CH' }],
      }),
    );
    expect(chaos.rcode).toBe('REFUSED');
    expect(asked).toEqual([]);
  });

  it('should answer SERVFAIL when the lookup fails', async () => {
    const failing: LookupNode = () => Promise.reject(new Error('database down'));
    const reply = await answerMessage(query(`${V4}.nodes.example.net`, 'A'), 'udp', zone, failing);
    expect(decode(reply!).rcode).toBe('SERVFAIL');
  });

  it('should answer FORMERR, NOTIMP or nothing to what is not one plain query', async () => {
    expect(await answerMessage(Buffer.alloc(5), 'udp', zone, lookup)).toBeNull();
    const response = dnsPacket.encode({ type: 'response', id: 9, questions: [] });
    expect(await answerMessage(response, 'udp', zone, lookup)).toBeNull();
    const twoQuestions = dnsPacket.encode({
      type: 'query',
      id: 9,
      questions: [
        { name: `${V4}.nodes.example.net`, type: 'A' },
        { name: `${V6}.nodes.example.net`, type: 'A' },
      ],
    });
    expect((await ask(twoQuestions)).rcode).toBe('FORMERR');
    const garbage = Buffer.concat([query('x', 'A').subarray(0, 12), Buffer.from([0x3f, 1, 2])]);
    expect((await ask(garbage)).rcode).toBe('FORMERR');
    const notify = query(`${V4}.nodes.example.net`, 'A');
    notify.writeUInt16BE(notify.readUInt16BE(2) | (4 << 11), 2);
    expect((await ask(notify)).rcode).toBe('NOTIMP');
  });

  it('should echo EDNS and truncate over UDP only past the size the client can take', async () => {
    const many = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.example.org`;
    const big: NodeZone = {
      ...zone,
      nameServers: Array.from({ length: 12 }, (_, i) => `${i}${many}`),
    };
    const nsQuery = (edns: boolean) =>
      query('nodes.example.net', 'NS', {
        additionals: edns
          ? [
              {
                type: 'OPT',
                name: '.',
                udpPayloadSize: 4096,
                flags: 0,
                options: [],
              } as unknown as Answer,
            ]
          : [],
      });
    const classic = decode((await answerMessage(nsQuery(false), 'udp', big, lookup))!);
    expect(classic.flag_tc).toBe(true);
    expect(classic.answers).toEqual([]);
    const edns = await answerMessage(nsQuery(true), 'udp', big, lookup);
    expect(edns!.length).toBeLessThanOrEqual(MAX_UDP_SIZE);
    expect(decode(edns!).additionals?.map((a) => a.type)).toEqual(['OPT']);
    const tcp = decode((await answerMessage(nsQuery(false), 'tcp', big, lookup))!);
    expect(tcp.flag_tc).toBe(false);
    expect(tcp.answers).toHaveLength(12);
  });

  it('should never throw on random bytes, nor on mutations of a valid query', async () => {
    const valid = query(`${V4}.nodes.example.net`, 'A', {
      additionals: [
        {
          type: 'OPT',
          name: '.',
          udpPayloadSize: 1232,
          flags: 0,
          options: [],
        } as unknown as Answer,
      ],
    });
    for (let i = 0; i < 3000; i += 1) {
      let message: Buffer;
      if (i % 2 === 0) {
        message = randomBytes(Math.floor(Math.random() * 600));
      } else {
        message = Buffer.from(valid);
        for (let k = 0; k < 1 + (i % 5); k += 1) {
          message[Math.floor(Math.random() * message.length)] = Math.floor(Math.random() * 256);
        }
        if (i % 7 === 0) message = message.subarray(0, Math.floor(Math.random() * message.length));
      }
      const reply = await answerMessage(message, i % 3 === 0 ? 'tcp' : 'udp', zone, lookup);
      if (reply) {
        expect(reply.length).toBeGreaterThanOrEqual(12);
        expect(reply.readUInt16BE(0)).toBe(message.readUInt16BE(0));
        expect(reply.readUInt16BE(2) & 0x8000).toBe(0x8000);
      }
    }
  });
});
