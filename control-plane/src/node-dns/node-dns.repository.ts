import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryPrepared } from '../common/sql';

/** What the DNS server answers for a node name: its public address, if it gave one. */
export interface NamedNode {
  /**
   * Where clients connect, best first: the reported public host (an IP or a name), then the one
   * given at enrollment. Empty: neither is known yet.
   */
  addresses: string[];
}

/** The only DB access of the node DNS server. */
@Injectable()
export class NodeDnsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The node named `hostName`; null when there is none, or it is banned (a deleted node's row
   * is gone): such names answer NXDOMAIN.
   */
  async findNamedNode(hostName: string): Promise<NamedNode | null> {
    const rows = await queryPrepared<{ host: string | null; enrolled_host: string | null }>(
      this.dataSource,
      `SELECT host, enrolled_host FROM server_directory
       WHERE host_name = $1 AND banned_at IS NULL`,
      [hostName],
    );
    const row = rows[0];
    if (!row) return null;
    return { addresses: [row.host, row.enrolled_host].filter((a): a is string => a !== null) };
  }
}
