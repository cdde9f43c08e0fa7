import { isIP } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet, Question } from 'dns-packet';
import { HOST_NAME_PATTERN } from './node-host-name';
import type { NamedNode } from './node-dns.repository';

/** docs/operators.md#node-names-control-plane-for-publicly-trusted-certificates: node addresses live 60 s in resolvers, so a move shows soon. */
export const NODE_TTL_SECONDS = 60;
/** The apex's SOA and NS records change only with the settings. */
const APEX_TTL_SECONDS = 3600;
/** Plain DNS over UDP without EDNS: RFC 1035's 512 bytes. */
const CLASSIC_UDP_SIZE = 512;
/** The most we send over UDP even when a client offers more (the DNS flag day 2020 figure). */
export const MAX_UDP_SIZE = 1232;

const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
type Rcode = keyof typeof RCODE;
const OPCODE_QUERY = 0;
const QR = 0x8000;

export interface NodeZone {
  /** Lower-case, no trailing dot. */
  domain: string;
  nameServers: readonly string[];
  /** The SOA contact as a DNS name (hostmaster.example.net). */
  hostmaster: string;
  serial: number;
}

/** The node named by a label of the zone; null: no such node (or banned). */
export type LookupNode = (hostName: string) => Promise<NamedNode | null>;

export type Transport = 'udp' | 'tcp';

/**
 * The answer to one DNS message (`request`, without TCP's length prefix), or null when nothing
 * should be sent back (not a query at all, or too short to carry an id). Never throws on what a
 * client sent; a failing lookup answers SERVFAIL.
 */
export async function answerMessage(
  request: Buffer,
  transport: Transport,
  zone: NodeZone,
  lookup: LookupNode,
): Promise<Buffer | null> {
  if (request.length < 12) return null;
  const header = request.readUInt16BE(2);
  // A response sent to us (a reflection attempt or a confused peer) gets nothing back.
  if (header & QR) return null;
  const id = request.readUInt16BE(0);
  const rd = header & dnsPacket.RECURSION_DESIRED;
  let query: DecodedPacket;
  try {
    query = dnsPacket.decode(request);
  } catch {
    return bareResponse(id, header, 'FORMERR');
  }
  if (((header >> 11) & 0xf) !== OPCODE_QUERY) return bareResponse(id, header, 'NOTIMP');
  const question = query.questions?.[0];
  if (!question || query.questions!.length !== 1) return bareResponse(id, header, 'FORMERR');
  const opt = query.additionals?.find((a) => a.type === 'OPT');
  const limit =
    transport === 'tcp'
      ? 65_535
      : opt && 'udpPayloadSize' in opt
        ? Math.min(Math.max(opt.udpPayloadSize ?? CLASSIC_UDP_SIZE, CLASSIC_UDP_SIZE), MAX_UDP_SIZE)
        : CLASSIC_UDP_SIZE;

  let reply: Reply;
  try {
    reply = await replyTo(question, zone, lookup);
  } catch {
    reply = { rcode: 'SERVFAIL', answers: [], authorities: [], authoritative: false };
  }
  const response: Packet = {
    type: 'response',
    id,
    flags: (reply.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | rd | RCODE[reply.rcode],
    // The question as the client wrote it (resolvers randomise its case and compare).
    questions: [question],
    answers: reply.answers,
    authorities: reply.authorities,
    additionals: opt
      ? [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: MAX_UDP_SIZE,
            extendedRcode: 0,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options: [],
          },
        ]
      : [],
  };
  try {
    const encoded = dnsPacket.encode(response);
    if (encoded.length <= limit) return encoded;
    // Too large for this datagram: the header and question with TC set, so the client asks over
    // TCP.
    return dnsPacket.encode({
      ...response,
      flags: response.flags! | dnsPacket.TRUNCATED_RESPONSE,
      answers: [],
      authorities: [],
    });
  } catch {
    // A question that decodes but cannot be written back (bytes no host name has).
    return bareResponse(id, header, 'FORMERR');
  }
}

interface Reply {
  rcode: Rcode;
  answers: Answer[];
  authorities: Answer[];
  authoritative: boolean;
}

/** Header only (no question: it could not be read), with the client's id, opcode and RD. */
function bareResponse(id: number, header: number, rcode: Rcode): Buffer {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(id, 0);
  out.writeUInt16BE(QR | (header & 0x7900) | RCODE[rcode], 2);
  return out;
}

/** The zone's own name of `name` (lower-case, no trailing dot), or null outside the zone. */
function inZone(name: string, domain: string): string | null {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower === domain) return '';
  return lower.endsWith(`.${domain}`) ? lower.slice(0, -domain.length - 1) : null;
}

async function replyTo(question: Question, zone: NodeZone, lookup: LookupNode): Promise<Reply> {
  const refused: Reply = { rcode: 'REFUSED', answers: [], authorities: [], authoritative: false };
  if (question.class !== 'IN') return refused;
  const relative = inZone(question.name, zone.domain);
  // Not ours: no recursion, no referral upward.
  if (relative === null) return refused;
  const soa = soaRecord(zone);
  const found = (answers: Answer[]): Reply =>
    answers.length > 0
      ? { rcode: 'NOERROR', answers, authorities: [], authoritative: true }
      : { rcode: 'NOERROR', answers: [], authorities: [soa], authoritative: true };
  const missing: Reply = {
    rcode: 'NXDOMAIN',
    answers: [],
    authorities: [soa],
    authoritative: true,
  };

  // dns-packet's types omit ANY (255), which it decodes by that name.
  const type: string = question.type;
  if (relative === '') {
    const name = question.name;
    const ns = zone.nameServers.map((data): Answer => ({
      type: 'NS',
      name,
      ttl: APEX_TTL_SECONDS,
      class: 'IN',
      data,
    }));
    const apexSoa: Answer = { ...soa, name };
    if (type === 'SOA') return found([apexSoa]);
    if (type === 'NS') return found(ns);
    if (type === 'ANY') return found([apexSoa, ...ns]);
    return found([]);
  }
  // Only one label below the apex, and only names this control plane hands out: anything else
  // is NXDOMAIN without asking the database.
  if (!HOST_NAME_PATTERN.test(relative)) return missing;
  const node = await lookup(relative);
  if (!node) return missing;
  return found(recordsFor(question, node, zone.domain));
}

/**
 * A node's records for the question: A for an IPv4 address, AAAA for an IPv6 one, a CNAME to a
 * host name (the operator's own, which resolvers then follow). A name inside this zone is skipped
 * (it would point at itself or another node); the next known address is used instead.
 */
function recordsFor(question: Question, node: NamedNode, domain: string): Answer[] {
  const address = node.addresses.find((a) => isIP(a) !== 0 || inZone(a, domain) === null);
  if (address === undefined) return [];
  const name = question.name;
  const base = { name, ttl: NODE_TTL_SECONDS, class: 'IN' as const };
  const family = isIP(address);
  const type: string = question.type;
  if (family === 0) return [{ ...base, type: 'CNAME', data: address }];
  if (family === 4 && (type === 'A' || type === 'ANY')) {
    return [{ ...base, type: 'A', data: address }];
  }
  if (family === 6 && (type === 'AAAA' || type === 'ANY')) {
    return [{ ...base, type: 'AAAA', data: address }];
  }
  return [];
}

/** The zone's SOA; its minimum (the negative-answer TTL) is short, as names appear at enrollment. */
function soaRecord(zone: NodeZone): Answer {
  return {
    type: 'SOA',
    name: zone.domain,
    ttl: APEX_TTL_SECONDS,
    class: 'IN',
    data: {
      mname: zone.nameServers[0] ?? zone.domain,
      rname: zone.hostmaster,
      serial: zone.serial,
      refresh: 3600,
      retry: 600,
      expire: 604_800,
      minimum: NODE_TTL_SECONDS,
    },
  };
}
