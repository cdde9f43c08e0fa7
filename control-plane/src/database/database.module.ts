import { Global, Module } from '@nestjs/common';
import { DatabaseHealth } from './database-health';
import { DatabasePool } from './database-pool';
import { PgChannels } from './pg-channels';
import { TransactionRunner } from './transaction-runner';

const PROVIDERS = [TransactionRunner, DatabaseHealth, PgChannels, DatabasePool];

/**
 * Provides the one `TransactionRunner` to every module, and the database's infrastructure
 * (health probes, LISTEN/NOTIFY channels, the pool's counts for the metrics) to the parts that are no domain of their own.
 */
@Global()
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class DatabaseModule {}
