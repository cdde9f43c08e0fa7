import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEPOSIT_ROUTES, type SolanaConfig } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { solanaConfigView } from './deposit-rules';
import { DepositsException } from './deposits.exception';

/** spec 01 §7 Solana config (public: the deposit address and the rate are not secrets). */
@ApiTags('deposits')
@Controller()
export class SolanaConfigController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get([DEPOSIT_ROUTES.config, DEPOSIT_ROUTES.apiConfig])
  @ApiOperation({
    summary:
      'Deposit address, SSL per SOL, prices, the cluster and its public RPC, the quote lifetime and the explorer link (503 when deposits are off)',
  })
  solanaConfig(): SolanaConfig {
    if (!this.config.solana) throw new DepositsException('deposits_off');
    return solanaConfigView(this.config.solana, this.clock.now());
  }
}
