import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MarketRepository } from './market.repository';

/**
 * Premium (admin) servers (docs/product/records.md#market-and-wallet-records, docs/product/roles.md#who-may-use-the-market-and-wallet): the servers of the platform's own operator account,
 * the node account whose e-mail is PLATFORM_OPERATOR_EMAIL. Read live from the database (no
 * cache), so every replica answers the same. For other domains: subscriptions price premium
 * servers at 10 SSL and pay no operator reward on them.
 */
@Injectable()
export class PremiumServers {
  constructor(
    private readonly repository: MarketRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The platform operator's e-mail, or null when none is configured (no premium servers). */
  get operatorEmail(): string | null {
    return this.config.platformOperatorEmail ?? null;
  }

  /** The platform operator's node account uuid; null if not configured or not signed up yet. */
  platformOperatorUuid(): Promise<string | null> {
    const email = this.operatorEmail;
    return email ? this.repository.nodeAccountUuid(email) : Promise.resolve(null);
  }

  async isPremium(serverId: string): Promise<boolean> {
    const email = this.operatorEmail;
    return email ? this.repository.ownedByEmail(serverId, email) : false;
  }

  /** Which of these servers are premium. */
  async premiumAmong(serverIds: readonly string[]): Promise<Set<string>> {
    const email = this.operatorEmail;
    return email ? this.repository.ownedByEmailAmong(serverIds, email) : new Set();
  }
}
