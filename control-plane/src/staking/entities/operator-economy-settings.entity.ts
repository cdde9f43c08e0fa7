import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An operator's economy settings: the automatic stake of each payout. */
@Entity({ name: 'operator_economy_settings' })
@Check('ck_operator_economy_settings_auto_stake', `"auto_stake_percent" BETWEEN 0 AND 100`)
export class OperatorEconomySettingsEntity {
  @PrimaryColumn({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ name: 'auto_stake_percent', type: 'smallint', default: 0 })
  autoStakePercent: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
