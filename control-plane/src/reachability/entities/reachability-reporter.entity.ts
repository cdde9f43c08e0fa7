import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';

/**
 * How far a client account's reports can be trusted: each report a vantage point in the same
 * network contradicts (or confirms) within the hour counts here. An account that keeps being
 * contradicted counts for nothing (docs/reachability.md#abuse).
 */
@Entity({ name: 'reachability_reporters' })
export class ReachabilityReporterEntity {
  @PrimaryColumn({ name: 'account_uuid', type: 'uuid' })
  accountUuid: string;

  @OneToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'account_uuid',
    foreignKeyConstraintName: 'fk_reachability_reporters_account',
  })
  account?: AccountEntity;

  @Column({ type: 'int', default: 0 })
  agreements: number;

  @Column({ type: 'int', default: 0 })
  disagreements: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
