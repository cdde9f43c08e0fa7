import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ECONOMICS_ROUTES, type LiveEconomy } from '@scn/proto';
import { EconomicsService } from './economics.service';

/** The live economy (public: totals only, nothing about any account). */
@ApiTags('economics')
@Controller()
export class EconomicsController {
  constructor(private readonly economics: EconomicsService) {}

  @Get(ECONOMICS_ROUTES.live)
  @Header('Cache-Control', 'public, max-age=30')
  @ApiOperation({
    summary:
      "The reward pool, this month's budget, what the pool paid and received, network reliability and stakes",
  })
  live(): Promise<LiveEconomy> {
    return this.economics.live();
  }
}
