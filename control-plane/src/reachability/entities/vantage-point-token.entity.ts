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

/** A one-time token that enrolls one vantage point (`scn-agent probe --token`): single use, expiring. */
@Entity({ name: 'vantage_point_tokens' })
@Index('ix_vantage_point_tokens_owner', ['ownerUuid'])
@Index('uq_vantage_point_tokens_hash', ['tokenHash'], { unique: true })
export class VantagePointTokenEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_uuid', foreignKeyConstraintName: 'fk_vantage_point_tokens_owner' })
  owner?: AccountEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  /** The vantage point it enrolled. */
  @Column({ name: 'probe_id', type: 'uuid', nullable: true })
  probeId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
