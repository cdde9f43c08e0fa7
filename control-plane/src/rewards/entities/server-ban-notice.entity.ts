import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The e-mail that told an operator a server was banned: one row per ban, claimed
 * before the mail is sent, so every ban is mailed once across replicas. Kept when the server
 * is deleted.
 */
@Entity({ name: 'server_ban_notices' })
export class ServerBanNoticeEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @PrimaryColumn({ name: 'banned_at', type: 'timestamptz' })
  bannedAt: Date;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ name: 'notified_at', type: 'timestamptz' })
  notifiedAt: Date;
}
