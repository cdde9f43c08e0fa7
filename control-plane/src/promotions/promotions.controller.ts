import { Body, Controller, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { PromoteResponse, PromotionStatus } from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { CurrentSession, ForAccountType } from '../auth/session.guard';
import { UuidParam } from '../common/uuid-param';
import { PromoteDto } from './dto/promotions.dto';
import { PromotionsException } from './promotions.exception';
import { PromotionsService } from './promotions.service';

const serverNotFound = () => new PromotionsException('server_not_found');

/**
 * docs/product/calls.md#market-and-account-calls promotion calls of the Promote Server modal. Only the server's owner: anyone else
 * (another operator, a client) gets the same 404 as for a server that does not exist.
 */
@ApiTags('promotions')
@Controller()
@ForAccountType('node')
export class PromotionsController {
  constructor(private readonly promotions: PromotionsService) {}

  @Get('servers/:id/promotion')
  @ApiOperation({
    summary:
      "Your server's promotion: active, expiresAt, amountPaid (the 4,000 SSL cap counts it), the plans it still allows, the node wallet's available balance",
  })
  status(
    @UuidParam('id', serverNotFound) id: string,
    @CurrentSession() session: ActiveSession,
  ): Promise<PromotionStatus> {
    return this.promotions.status(session.account.uuid, id);
  }

  @Post('servers/:id/promote')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Promotes your server: days (10, 20, 30) and cost (the plan's price, checked); paid from the node wallet (402 insufficient_balance), 10% burned, 90% to the reward pool; 409 past the cap; header Idempotency-Key makes it happen once",
  })
  promote(
    @UuidParam('id', serverNotFound) id: string,
    @Body() body: PromoteDto,
    @CurrentSession() session: ActiveSession,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<PromoteResponse> {
    return this.promotions.promote(session.account.uuid, id, body, idempotencyKey);
  }
}
