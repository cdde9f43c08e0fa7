import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Locale, UserType } from '@scn/proto';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../common/sql';
import { AccountEntity } from './entities/account.entity';
import { TermsAcceptanceEntity } from './entities/terms-acceptance.entity';

export type NewAccount = Pick<
  AccountEntity,
  'uuid' | 'email' | 'userType' | 'passwordHash' | 'name'
>;
export type NewTermsAcceptance = Omit<TermsAcceptanceEntity, 'id' | 'acceptedAt' | 'account'>;

/** The only DB access for accounts and their terms acceptances. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findByLogin(email: string, userType: UserType): Promise<AccountEntity | null> {
    return this.dataSource.getRepository(AccountEntity).findOneBy({ email, userType });
  }

  findByUuid(uuid: string): Promise<AccountEntity | null> {
    return this.dataSource.getRepository(AccountEntity).findOneBy({ uuid });
  }

  /** Inserts the account; returns false when (email, userType) is already taken. */
  async insert(manager: EntityManager, account: NewAccount): Promise<boolean> {
    const rows = await queryRows(
      manager,
      `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ON CONSTRAINT uq_accounts_email_user_type DO NOTHING RETURNING uuid`,
      [account.uuid, account.email, account.userType, account.passwordHash, account.name],
    );
    return rows.length === 1;
  }

  async updatePasswordHash(
    manager: EntityManager,
    uuid: string,
    passwordHash: string,
  ): Promise<void> {
    await manager.getRepository(AccountEntity).update({ uuid }, { passwordHash });
  }

  /** The account's saved language (the check constraint holds it to `LOCALES`). */
  async updateLocale(uuid: string, locale: Locale): Promise<void> {
    await this.dataSource.getRepository(AccountEntity).update({ uuid }, { locale });
  }

  async insertTermsAcceptance(acceptance: NewTermsAcceptance): Promise<TermsAcceptanceEntity> {
    return this.dataSource.getRepository(TermsAcceptanceEntity).save(acceptance);
  }

  latestTermsAcceptance(accountUuid: string): Promise<TermsAcceptanceEntity | null> {
    return this.dataSource
      .getRepository(TermsAcceptanceEntity)
      .findOne({ where: { accountUuid }, order: { acceptedAt: 'DESC', id: 'DESC' } });
  }
}
