import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { type NamedNode, NodeDnsRepository } from './node-dns.repository';

/** How long an answer read from the database is reused (each replica reads for itself). */
export const NODE_CACHE_TTL_MS = 10_000;
/** Names remembered at most (a flood of made-up names cannot grow it further). */
const MAX_ENTRIES = 100_000;

interface Entry {
  node: Promise<NamedNode | null>;
  expiresAt: number;
}

/**
 * The nodes the DNS server answers for, read through the repository and reused for
 * NODE_CACHE_TTL_MS (unknown names too, so a repeated made-up name costs one read). A node's
 * address change on this replica forgets its entry at once; other replicas see it within the TTL.
 * Lookups of one name while its read is in the database share that read.
 */
@Injectable()
export class NodeAddressCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly repository: NodeDnsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  lookup(hostName: string): Promise<NamedNode | null> {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(hostName);
    if (cached && cached.expiresAt > now) return cached.node;
    this.entries.delete(hostName);
    const node = this.repository.findNamedNode(hostName);
    const entry = { node, expiresAt: now + NODE_CACHE_TTL_MS };
    this.entries.set(hostName, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    // A failed read is not remembered: the next query asks again.
    node.catch(() => {
      if (this.entries.get(hostName) === entry) this.entries.delete(hostName);
    });
    return node;
  }

  /** The node's address changed (or it was banned or deleted): read it again next time. */
  forget(hostName: string | null): void {
    if (hostName) this.entries.delete(hostName);
  }
}
