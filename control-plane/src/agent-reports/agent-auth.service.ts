import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { canonicalUuid } from '@scn/proto';
import { NodesException } from '../nodes/nodes.exception';
import { type AgentServer, AgentServerRepository } from '../nodes/agent-server.repository';

/**
 * A node credential as a call presented it (node id and bearer secret). The node it names and
 * its hash are worked out once: a ReportStream presents one credential for every report on it.
 */
export class PresentedCredential {
  private digest: Buffer | undefined;
  /** The node the secret was issued to (secrets are `<node id>.<random>`), or null if none. */
  readonly ownId: string | null;

  constructor(
    readonly claimedNodeId: string,
    readonly bearer: string,
  ) {
    const ownId = bearer.split('.', 1)[0]!;
    // Issued in canonical (lower-case) form: any other spelling names no node.
    this.ownId = canonicalUuid(ownId) === ownId ? ownId : null;
  }

  get hash(): Buffer {
    return (this.digest ??= createHash('sha256').update(this.bearer).digest());
  }
}

/** Which node an agent call comes from (Report, ReportStream, WatchClients). */
@Injectable()
export class AgentAuthService {
  constructor(private readonly servers: AgentServerRepository) {}

  /**
   * The node a call comes from. The secret names its node (`<id>.<random>`), so a valid secret
   * sent with another node's id is told apart from a wrong secret. `fresh: false` lets the copy
   * this process remembered at its last report write answer: only for reports, whose write
   * checks the row version (see AgentReportsService.report()).
   */
  async authenticate(
    credential: PresentedCredential,
    { fresh }: { fresh: boolean } = { fresh: true },
  ): Promise<AgentServer> {
    const ownId = credential.ownId;
    if (ownId === null) throw new NodesException('node_unauthenticated');
    const recalled = fresh ? undefined : this.servers.recall(ownId);
    const server = recalled ?? (await this.servers.read(ownId));
    const expected = server?.secretDigest ?? null;
    if (
      !server ||
      !expected ||
      expected.length !== credential.hash.length ||
      !timingSafeEqual(expected, credential.hash)
    ) {
      // A remembered copy never refuses on its own: the database decides.
      if (recalled) return this.authenticate(credential, { fresh: true });
      throw new NodesException('node_unauthenticated');
    }
    if (credential.claimedNodeId !== server.id) throw new NodesException('node_mismatch');
    return server;
  }
}
