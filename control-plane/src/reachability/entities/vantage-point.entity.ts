import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';

/**
 * A vantage point (`scn-agent probe`): an agent inside some network that tests whether servers
 * can be reached from there. Its country and network are looked up from the address its calls
 * come from (GeoIP), at every call, never taken from what it says.
 */
@Entity({ name: 'vantage_points' })
@Index('ix_vantage_points_owner', ['ownerUuid'])
export class VantagePointEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** The account that enrolled it (an operator or a volunteer). */
  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_uuid', foreignKeyConstraintName: 'fk_vantage_points_owner' })
  owner?: AccountEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** SHA-256 (hex) of its secret; the secret itself is shown once, at enrollment. */
  @Column({ name: 'secret_hash', type: 'char', length: 64 })
  secretHash: string;

  @Column({ name: 'agent_version', type: 'varchar', length: 32, nullable: true })
  agentVersion: string | null;

  /** Where its last call came from, and where GeoIP placed that address. */
  @Column({ name: 'last_address', type: 'varchar', length: 45, nullable: true })
  lastAddress: string | null;

  @Column({ type: 'char', length: 2, nullable: true })
  country: string | null;

  @Column({ type: 'int', nullable: true })
  asn: number | null;

  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
