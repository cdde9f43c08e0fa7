import { Module } from '@nestjs/common';
import { EconomicsController } from './economics.controller';
import { EconomicsRepository } from './economics.repository';
import { EconomicsService } from './economics.service';

/** The live economy of /economics. */
@Module({
  controllers: [EconomicsController],
  providers: [EconomicsRepository, EconomicsService],
})
export class EconomicsModule {}
