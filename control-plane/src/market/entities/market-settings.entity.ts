import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row: what the market triggers need from the configuration. The e-mail of the platform
 * operator (PLATFORM_OPERATOR_EMAIL) is written at start, so a server that operator adds is
 * premium from its first row on.
 */
@Entity({ name: 'market_settings' })
@Check('ck_market_settings_single_row', `"id" = 1`)
export class MarketSettingsEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ name: 'platform_operator_email', type: 'varchar', length: 254, nullable: true })
  platformOperatorEmail: string | null;
}
