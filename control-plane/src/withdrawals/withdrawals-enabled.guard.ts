import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { WithdrawalsException } from './withdrawals.exception';

/**
 * docs/product/input-rules.md#market-and-account-input: while WITHDRAWALS_ENABLED is off, a withdrawal answers "Withdrawals are
 * suspended" whatever its body (a guard runs before the body is validated).
 */
@Injectable()
export class WithdrawalsEnabledGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (!this.config.withdrawals || !this.config.solana) {
      throw new WithdrawalsException('withdrawals_suspended');
    }
    return true;
  }
}
