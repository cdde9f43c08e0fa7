import { Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type MessageResponse,
  type WalletResponse,
  type WalletSettingsResponse,
  walletQuerySchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { OwnAccount, OwnsAccountGuard } from '../auth/own-account.decorator';
import { CurrentSession, ForAccountType, SessionGuard } from '../auth/session.guard';
import { WalletException } from './wallet.exception';
import { WalletService } from './wallet.service';

/** docs/product/records.md#market-and-wallet-records: client and node wallets are separate; each account has the one of its type. */
const wrongWalletType = () => new WalletException('wrong_wallet_type');

export class WalletQueryDto extends createZodDto(walletQuerySchema) {}

/** docs/product/calls.md#market-and-account-calls / docs/product/calls.md#dashboard-calls wallet calls. Amounts are computed here, never taken from a client. */
@ApiTags('wallet')
@Controller()
@UseGuards(SessionGuard)
export class WalletController {
  constructor(private readonly wallets: WalletService) {}

  @Get('wallet/client/:uuid')
  @ForAccountType('client', wrongWalletType)
  @ApiOperation({ summary: 'Client wallet: balance and transactions (newest first, paged)' })
  async clientWallet(
    @OwnAccount() uuid: string,
    @Query() query: WalletQueryDto,
  ): Promise<WalletResponse> {
    return { success: true, data: await this.wallets.view(uuid, 'client', query) };
  }

  @Get('wallet/node/:uuid')
  @ForAccountType('node', wrongWalletType)
  @ApiOperation({ summary: 'Node wallet: balance, frozen rewards (60 days) and transactions' })
  async nodeWallet(
    @OwnAccount() uuid: string,
    @Query() query: WalletQueryDto,
  ): Promise<WalletResponse> {
    return { success: true, data: await this.wallets.view(uuid, 'node', query) };
  }

  @Post('wallet/create-client-wallet')
  @ForAccountType('client', wrongWalletType)
  @HttpCode(200)
  @ApiOperation({ summary: "Creates the session's client wallet if it has none (idempotent)" })
  async createClientWallet(@CurrentSession() session: ActiveSession): Promise<MessageResponse> {
    await this.wallets.create(session, 'client');
    return { success: true, message: 'Wallet ready' };
  }

  @Post('wallet/create-node-wallet')
  @ForAccountType('node', wrongWalletType)
  @HttpCode(200)
  @ApiOperation({ summary: "Creates the session's node wallet if it has none (idempotent)" })
  async createNodeWallet(@CurrentSession() session: ActiveSession): Promise<MessageResponse> {
    await this.wallets.create(session, 'node');
    return { success: true, message: 'Wallet ready' };
  }

  @Get('wallet/settings')
  @ApiOperation({ summary: 'Prices, reward and launch-period settings (all computed here)' })
  settings(): WalletSettingsResponse {
    return { success: true, settings: this.wallets.settings() };
  }

  @Post('wallet/client/:uuid/pay-subscription')
  @ForAccountType('client', wrongWalletType)
  @UseGuards(OwnsAccountGuard)
  @ApiOperation({
    summary:
      'Refused (410): the old client named the amount; POST /api/clients/create-subscription prices and pays in one transaction',
  })
  paySubscription(): never {
    throw new WalletException('pay_through_subscription');
  }

  @Post('api/wallet/node/:uuid/reward')
  @ForAccountType('node', wrongWalletType)
  @ApiOperation({
    summary: 'Refused (403): operator rewards are paid by the server as part of each purchase',
  })
  nodeReward(): never {
    throw new WalletException('rewards_are_server_side');
  }
}
