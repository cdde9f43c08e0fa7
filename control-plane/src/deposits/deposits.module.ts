import { Module } from '@nestjs/common';
import { SolanaConfigController } from './deposits.controller';

/** SOL deposits (issue 17): requests with a Solana Pay reference, verification, the watcher. */
@Module({
  controllers: [SolanaConfigController],
})
export class DepositsModule {}
