import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { AccountEntity } from './account.entity';

/** docs/product/records.md#market-and-wallet-records: one row per acceptance of the terms and the protection policy. */
@Entity({ name: 'terms_acceptances' })
@Index('ix_terms_acceptances_account', ['accountUuid', 'acceptedAt'])
export class TermsAcceptanceEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'account_uuid', type: 'uuid' })
  accountUuid: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_uuid', foreignKeyConstraintName: 'fk_terms_acceptances_account' })
  account?: AccountEntity;

  @Column({ name: 'terms_version', type: 'varchar', length: 16 })
  termsVersion: string;

  @Column({ name: 'privacy_version', type: 'varchar', length: 16 })
  privacyVersion: string;

  /** Taken from the request by the server, never from the body. */
  @Column({ name: 'ip_address', type: 'varchar', length: 64 })
  ipAddress: string;

  @Column({ name: 'user_agent', type: 'varchar', length: 1024, nullable: true })
  userAgent: string | null;

  @Column({ name: 'browser_info', type: 'jsonb', nullable: true })
  browserInfo: Record<string, string | undefined> | null;

  @Column({ type: 'jsonb', nullable: true })
  location: Record<string, unknown> | null;

  @Column({ name: 'client_timestamp', type: 'varchar', length: 64, nullable: true })
  clientTimestamp: string | null;

  @CreateDateColumn({ name: 'accepted_at', type: 'timestamptz' })
  acceptedAt: Date;
}
