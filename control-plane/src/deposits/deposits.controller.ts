import { Body, Controller, Get, HttpCode, Inject, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  createDepositRequestSchema,
  type DepositAddressResponse,
  depositAddressQuerySchema,
  type DepositTransfersResponse,
  depositTransfersQuerySchema,
  verifyAddressDepositSchema,
  type VerifyAddressDepositResponse,
  DEPOSIT_ROUTES,
  type DepositRequestResponse,
  type SolanaConfig,
  verifyDepositSchema,
  type VerifyDepositResponse,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { CurrentSession, SessionGuard } from '../auth/session.guard';
import { UuidParam } from '../common/uuid-param';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AddressDepositViewsService } from './address-deposit-views.service';
import { DepositAddressService } from './deposit-address.service';
import { DepositRequestsService } from './deposit-requests.service';
import { solanaConfigView } from './deposit-rules';
import { DepositVerifyService } from './deposit-verify.service';
import { DepositsException } from './deposits.exception';

/** docs/product/calls.md#market-and-account-calls Solana config (public: the deposit address and the rate are not secrets). */
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

export class CreateDepositRequestDto extends createZodDto(createDepositRequestSchema) {}
export class VerifyDepositDto extends createZodDto(verifyDepositSchema) {}
export class DepositAddressQueryDto extends createZodDto(depositAddressQuerySchema) {}
export class DepositTransfersQueryDto extends createZodDto(depositTransfersQuerySchema) {}
export class VerifyAddressDepositDto extends createZodDto(verifyAddressDepositSchema) {}

/** Deposit requests and verify-deposit: the session's own account and wallet only. */
@ApiTags('deposits')
@Controller()
@UseGuards(SessionGuard)
export class DepositsController {
  constructor(
    private readonly requests: DepositRequestsService,
    private readonly verifier: DepositVerifyService,
    private readonly addresses: DepositAddressService,
    private readonly addressDeposits: AddressDepositViewsService,
  ) {}

  @Get(DEPOSIT_ROUTES.depositAddress)
  @ApiOperation({
    summary:
      "The session account's own deposit address (created on the first call, never changing) with the currencies it accepts, each with its mint, rate and minimum; ?wallet=node|client names the wallet (the other account type's: 403); 409 deposits.addresses_off without SOLANA_DEPOSIT_SEED",
  })
  depositAddress(
    @Query() query: DepositAddressQueryDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<DepositAddressResponse> {
    return this.addresses.forSession(session, query.wallet);
  }

  @Get(DEPOSIT_ROUTES.depositTransfers)
  @ApiOperation({
    summary:
      "Transfers to the session account's own deposit address, newest first (confirming, pending_minimum, credited, refused, dropped), and the totals waiting for the minimum per currency",
  })
  depositTransfers(
    @Query() query: DepositTransfersQueryDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<DepositTransfersResponse> {
    return this.addressDeposits.transfers(session, query);
  }

  @Post(DEPOSIT_ROUTES.depositAddressVerify)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Checks one transaction now: its transfers to deposit addresses are recorded (each for its own address's account) and credited when final; answers the session's own (422 wrong_recipient when it paid none)",
  })
  verifyAddressDeposit(
    @Body() body: VerifyAddressDepositDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<VerifyAddressDepositResponse> {
    return this.addressDeposits.verify(session, body);
  }

  @Post(DEPOSIT_ROUTES.requests)
  @HttpCode(201)
  @ApiOperation({
    summary:
      "A deposit request for the session's wallet (client or node): the SOL amount, the quote fixed for DEPOSIT_QUOTE_TTL, a fresh Solana Pay reference and the transfer-request URL",
  })
  async create(
    @Body() body: CreateDepositRequestDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<DepositRequestResponse> {
    return { success: true, request: await this.requests.create(session, body) };
  }

  @Get(`${DEPOSIT_ROUTES.requests}/:id`)
  @ApiOperation({ summary: 'One deposit request of the session (404 for any other)' })
  async get(
    @UuidParam('id', () => new DepositsException('request_not_found')) id: string,
    @CurrentSession() session: ActiveSession,
  ): Promise<DepositRequestResponse> {
    const request = await this.requests.get(session, id);
    return { success: true, request: this.requests.view(request) };
  }

  @Post(DEPOSIT_ROUTES.verify)
  @HttpCode(200)
  @ApiOperation({
    summary:
      'spec 01 §7: checks the chain now and credits the transfer once (by the request reference, or by sender and exact amount when exactly one open request matches)',
  })
  verify(
    @Body() body: VerifyDepositDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<VerifyDepositResponse> {
    return this.verifier.verify(session, body);
  }
}
