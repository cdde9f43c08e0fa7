import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type EarningsResponse, earningsQuerySchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { EarningsService } from './earnings.service';

export class EarningsQueryDto extends createZodDto(earningsQuerySchema) {}

/** An operator's monthly statements, line by line. */
@ApiTags('rewards')
@Controller()
@ForAccountType('node')
export class RewardsController {
  constructor(private readonly earnings: EarningsService) {}

  @Get('api/nodes/:uuid/earnings')
  @ApiOperation({
    summary:
      "Your nodes' reward statements for a month (?period=YYYY-MM): stored for an ended month, a dry run so far for the current one",
  })
  async get(
    @OwnAccount() uuid: string,
    @Query() query: EarningsQueryDto,
  ): Promise<EarningsResponse> {
    return { success: true, earnings: await this.earnings.earnings(uuid, query.period) };
  }
}
