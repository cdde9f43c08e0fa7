import type { VpsTierId } from '@scn/proto';
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

/** A one-time enrollment token from the setup wizard: single use, expiring, bound to a tier. */
@Entity({ name: 'enrollment_tokens' })
@Index('ix_enrollment_tokens_owner', ['ownerUuid'])
export class EnrollmentTokenEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index('uq_enrollment_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_uuid', foreignKeyConstraintName: 'fk_enrollment_tokens_owner' })
  owner?: AccountEntity;

  @Column({ type: 'varchar', length: 8 })
  tier: VpsTierId;

  /** The name the setup wizard gave the server it enrolls; null: a short one from its id. */
  @Column({ name: 'server_name', type: 'varchar', length: 100, nullable: true })
  serverName: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'server_id', type: 'uuid', nullable: true })
  serverId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
