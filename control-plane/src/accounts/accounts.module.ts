import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';

/** Accounts are (email, userType); other domains read them only through this repository. */
@Module({ providers: [AccountsRepository], exports: [AccountsRepository] })
export class AccountsModule {}
