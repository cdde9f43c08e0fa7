import { Body, Controller, Get, Headers, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { withdrawRequestSchema, type WithdrawalsResponse, type WithdrawResponse } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount, OwnsAccountGuard } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { WalletException } from '../wallet/wallet.exception';
import { WithdrawalsEnabledGuard } from './withdrawals-enabled.guard';
import { WithdrawalsService } from './withdrawals.service';

export class WithdrawDto extends createZodDto(withdrawRequestSchema) {}

/** docs/product/calls.md#market-and-account-calls / docs/product/roles.md#who-may-use-the-dashboards withdrawals of the node wallet: the owner only, node accounts only. */
@ApiTags('wallet')
@Controller()
@ForAccountType('node', () => new WalletException('wrong_wallet_type'))
export class WithdrawalsController {
  constructor(private readonly withdrawals: WithdrawalsService) {}

  @Post('wallet/node/:uuid/withdraw')
  @HttpCode(201)
  // The account type and the owner first (as every /{uuid} route), then "suspended" before the
  // body is read.
  @UseGuards(OwnsAccountGuard, WithdrawalsEnabledGuard)
  @ApiOperation({
    summary:
      'Withdraws SSL from the node wallet to a Solana address (25% protocol fee; the rest paid in SOL at the quoted rate); 403 "Withdrawals are suspended" unless WITHDRAWALS_ENABLED; header Idempotency-Key makes it happen once',
  })
  withdraw(
    @OwnAccount() uuid: string,
    @Body() body: WithdrawDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<WithdrawResponse> {
    return this.withdrawals.withdraw(uuid, body, idempotencyKey);
  }

  @Get('wallet/node/:uuid/withdrawals')
  @ApiOperation({
    summary:
      "The node wallet's withdrawals (newest first) with their status and explorer link, the settings and what is left of today's cap",
  })
  list(@OwnAccount() uuid: string): Promise<WithdrawalsResponse> {
    return this.withdrawals.list(uuid);
  }
}
