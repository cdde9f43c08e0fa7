import { Body, Controller, Get, Headers, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { withdrawRequestSchema, type WithdrawalsResponse, type WithdrawResponse } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { OwnAccount, OwnsAccountGuard } from '../auth/own-account.decorator';
import { CurrentSession, SessionGuard } from '../auth/session.guard';
import { WalletService } from '../wallet/wallet.service';
import { WithdrawalsEnabledGuard } from './withdrawals-enabled.guard';
import { WithdrawalsService } from './withdrawals.service';

export class WithdrawDto extends createZodDto(withdrawRequestSchema) {}

/** spec 01 §7 / spec 02 §6 withdrawals of the node wallet: the owner only, node accounts only. */
@ApiTags('wallet')
@Controller()
@UseGuards(SessionGuard)
export class WithdrawalsController {
  constructor(
    private readonly withdrawals: WithdrawalsService,
    private readonly wallets: WalletService,
  ) {}

  @Post('wallet/node/:uuid/withdraw')
  @HttpCode(201)
  // The owner check first (as every /{uuid} route), then "suspended" before the body is read.
  @UseGuards(OwnsAccountGuard, WithdrawalsEnabledGuard)
  @ApiOperation({
    summary:
      'Withdraws SSL from the node wallet to a Solana address (25% protocol fee; the rest paid in SOL at the quoted rate); 403 "Withdrawals are suspended" unless WITHDRAWALS_ENABLED; header Idempotency-Key makes it happen once',
  })
  withdraw(
    @OwnAccount() uuid: string,
    @Body() body: WithdrawDto,
    @CurrentSession() session: ActiveSession,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<WithdrawResponse> {
    this.wallets.assertType(session, 'node');
    return this.withdrawals.withdraw(uuid, body, idempotencyKey);
  }

  @Get('wallet/node/:uuid/withdrawals')
  @ApiOperation({
    summary:
      "The node wallet's withdrawals (newest first) with their status and explorer link, the settings and what is left of today's cap",
  })
  list(
    @OwnAccount() uuid: string,
    @CurrentSession() session: ActiveSession,
  ): Promise<WithdrawalsResponse> {
    this.wallets.assertType(session, 'node');
    return this.withdrawals.list(uuid);
  }
}
