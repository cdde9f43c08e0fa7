import { Module } from '@nestjs/common';
import { NodeAddressCache } from './node-address-cache';
import { NodeDnsRepository } from './node-dns.repository';
import { NodeDnsServer } from './node-dns.server';

/**
 * Node names (docs/operators.md#node-names-control-plane-for-publicly-trusted-certificates): the authoritative DNS server of the platform's node
 * domain and the cache it answers from. Enrollment hands out names (node-host-name.ts) and the
 * agent reports forget a node's cached address when it moves; this domain knows neither.
 */
@Module({
  providers: [NodeDnsRepository, NodeAddressCache, NodeDnsServer],
  exports: [NodeAddressCache, NodeDnsServer],
})
export class NodeDnsModule {}
