import { createHash } from 'node:crypto';
import { promises as dns } from 'node:dns';
import net from 'node:net';

/**
 * The control plane's addresses as the agent knows them (docs/operators.md "Several control
 * plane replicas"): `host:port[,host:port...]`, each host a name or an IP; a name with several
 * A/AAAA records counts as one endpoint per record. Each agent starts at an endpoint chosen by
 * its node id, so a fleet spreads across the replicas, and moves to the next one when one fails.
 */

export interface HostPort {
  host: string;
  port: number;
}

/** One address the agent dials. */
export interface Endpoint {
  /** What grpc-js dials: `host:port` or `[v6]:port`. */
  target: string;
  /** The host as written: the TLS server name when `target` is one of its resolved addresses. */
  name: string;
  port: number;
}

/** The addresses of a host name (node:dns lookup, all records); injectable for tests. */
export type Lookup = (host: string) => Promise<string[]>;

/** getaddrinfo: /etc/hosts, then the machine's resolvers. */
export const systemLookup: Lookup = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const HOST_PORT = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:/,[\]]+)):(\d{1,5})$/;

/** `host:port` or `[v6]:port`; null when it is neither. */
export function parseHostPort(target: string): HostPort | null {
  const match = HOST_PORT.exec(target);
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: (match[1] ?? match[2])!, port };
}

/** `host:port`, with brackets around an IPv6 address. */
export function formatHostPort({ host, port }: HostPort): string {
  return net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * A comma-separated list of `host:port` (one is a list too); null when any entry is not
 * `host:port` or none is given. Duplicates are dropped, the written order kept.
 */
export function parseControlPlaneList(text: string): HostPort[] | null {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return null;
  const list: HostPort[] = [];
  for (const entry of entries) {
    const parsed = parseHostPort(entry);
    if (!parsed) return null;
    if (!list.some((seen) => seen.host === parsed.host && seen.port === parsed.port)) {
      list.push(parsed);
    }
  }
  return list;
}

/** The list's own words for a bad address, for zod and the flags. */
export const CONTROL_PLANE_LIST_MESSAGE = 'must be host:port, or several separated by commas';

/** Where an agent starts in `count` endpoints: stable for its key, spread across keys. */
export function spreadIndex(key: string, count: number): number {
  if (count <= 1) return 0;
  return createHash('sha256').update(key).digest().readUInt32BE(0) % count;
}

/**
 * The endpoints of `list`: an IP stays as written; a name becomes one endpoint per address it
 * resolves to (sorted, so every agent sees the same order whatever order the records come in);
 * a name that does not resolve stays as written (grpc-js then tries and fails it: the agent moves
 * on). Duplicate addresses are dropped.
 */
export async function expandEndpoints(
  list: readonly HostPort[],
  lookup: Lookup,
): Promise<Endpoint[]> {
  const expanded = await Promise.all(
    list.map(async ({ host, port }): Promise<Endpoint[]> => {
      const asWritten = [{ target: formatHostPort({ host, port }), name: host, port }];
      if (net.isIP(host)) return asWritten;
      const addresses = await lookup(host).catch(() => [] as string[]);
      if (addresses.length === 0) return asWritten;
      return [...new Set(addresses)]
        .sort()
        .map((address) => ({ target: formatHostPort({ host: address, port }), name: host, port }));
    }),
  );
  const seen = new Set<string>();
  return expanded.flat().filter((endpoint) => {
    if (seen.has(endpoint.target)) return false;
    seen.add(endpoint.target);
    return true;
  });
}

export interface EndpointRotationOptions {
  /** Spreads agents: the node id (none while enrolling: the first endpoint). */
  key?: string;
  lookup?: Lookup;
}

/** Why the agent moved: its endpoint failed, or it returned to the one its key picks. */
export type MoveReason = 'failed' | 'returned';
type MoveListener = (from: Endpoint, to: Endpoint, reason: MoveReason) => void;
type ContactListener = (endpoint: Endpoint) => void;

/**
 * Which endpoint the agent's calls and streams use now. Names are looked up before the first
 * call and again after a whole round of endpoints failed (a replica replaced behind its name).
 * `failed(e)` moves on only while `e` is current, so the report channel and the client stream
 * failing together on one dead replica move the agent once. Listeners hear each move (the
 * daemon reports at once to the new endpoint) and each successful contact (every stream's
 * backoff resets: the control plane is back). The endpoint the key picks is the preferred one:
 * an agent moved away from it returns there once it answers again (preferred-endpoint-return.ts),
 * so the fleet spreads again after a replica comes back.
 */
export class EndpointRotation {
  private endpoints: Endpoint[] | null = null;
  private index = 0;
  /** Failures in a row since the last lookup or contact; a whole round looks the names up again. */
  private failuresInRow = 0;
  private stale = true;
  private resolving: Promise<void> | null = null;
  private readonly moveListeners = new Set<MoveListener>();
  private readonly contactListeners = new Set<ContactListener>();

  constructor(
    readonly written: readonly HostPort[],
    private readonly options: EndpointRotationOptions = {},
  ) {
    if (written.length === 0) throw new Error('no control plane address');
  }

  /** How many endpoints a round holds (the written ones until the names are looked up). */
  get size(): number {
    return this.endpoints?.length ?? this.written.length;
  }

  /** The endpoint to use now, after looking the names up when due. */
  async current(): Promise<Endpoint> {
    while (this.stale || !this.endpoints) {
      this.resolving ??= this.resolve().finally(() => (this.resolving = null));
      await this.resolving;
    }
    return this.endpoints[this.index]!;
  }

  /** The endpoint to use now without a lookup: before the first one, the first written address. */
  peek(): Endpoint {
    if (this.endpoints) return this.endpoints[this.index]!;
    const first = this.written[0]!;
    return { target: formatHostPort(first), name: first.host, port: first.port };
  }

  /** The endpoint the key picks (the first without a key); null before the first lookup. */
  preferred(): Endpoint | null {
    const endpoints = this.endpoints;
    if (!endpoints) return null;
    const key = this.options.key;
    return endpoints[key ? spreadIndex(key, endpoints.length) : 0]!;
  }

  /** Whether the current endpoint is the preferred one (true before the first lookup). */
  get onPreferred(): boolean {
    const preferred = this.preferred();
    return preferred === null || preferred.target === this.peek().target;
  }

  /**
   * Back to `endpoint`, which answered again, when it is still the preferred one and not
   * current: listeners hear a move ('returned'). False when there was nothing to do.
   */
  returnTo(endpoint: Endpoint): boolean {
    const endpoints = this.endpoints;
    const preferred = this.preferred();
    if (!endpoints || preferred?.target !== endpoint.target || this.onPreferred) return false;
    const from = endpoints[this.index]!;
    this.index = endpoints.findIndex((e) => e.target === endpoint.target);
    this.failuresInRow = 0;
    for (const listener of this.moveListeners) listener(from, preferred, 'returned');
    return true;
  }

  /** Every endpoint of a round, looked up now. */
  async all(): Promise<Endpoint[]> {
    return expandEndpoints(this.written, this.options.lookup ?? systemLookup);
  }

  /** `endpoint` failed (refused, unavailable, ended, deadline): the next one becomes current. */
  failed(endpoint: Endpoint): void {
    const endpoints = this.endpoints;
    if (!endpoints || endpoints[this.index]!.target !== endpoint.target) return;
    this.failuresInRow += 1;
    if (this.failuresInRow >= endpoints.length) {
      this.failuresInRow = 0;
      this.stale = true;
    }
    if (endpoints.length === 1) return;
    this.index = (this.index + 1) % endpoints.length;
    const next = endpoints[this.index]!;
    for (const listener of this.moveListeners) listener(endpoint, next, 'failed');
  }

  /** The control plane answered through `endpoint` (a report, a stream message). */
  contact(endpoint: Endpoint): void {
    if (this.endpoints?.[this.index]?.target === endpoint.target) this.failuresInRow = 0;
    for (const listener of this.contactListeners) listener(endpoint);
  }

  onMove(listener: MoveListener): () => void {
    this.moveListeners.add(listener);
    return () => this.moveListeners.delete(listener);
  }

  onContact(listener: ContactListener): () => void {
    this.contactListeners.add(listener);
    return () => this.contactListeners.delete(listener);
  }

  private async resolve(): Promise<void> {
    const endpoints = await this.all();
    const previous = this.endpoints?.[this.index];
    const kept = previous ? endpoints.findIndex((e) => e.target === previous.target) : -1;
    this.endpoints = endpoints;
    const key = this.options.key;
    this.index = kept >= 0 ? kept : key ? spreadIndex(key, endpoints.length) : 0;
    this.stale = false;
  }
}

/** gRPC status codes after which the agent tries another endpoint. */
const MOVE_ON = new Set([
  1, // CANCELLED: the control plane cancelled the stream (shutting down)
  4, // DEADLINE_EXCEEDED: no answer in time
  14, // UNAVAILABLE: refused, reset, shut down
]);

/**
 * Whether a failure says "this endpoint is gone" rather than "this request was refused": an
 * error without a status (a stream that ended) counts as gone.
 */
export function movesOn(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code !== 'number' || MOVE_ON.has(code);
}
