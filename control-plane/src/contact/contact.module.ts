import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ContactController } from './contact.controller';
import { ContactRepository } from './contact.repository';
import { ContactService } from './contact.service';

@Module({
  imports: [AuthModule, RateLimitModule],
  controllers: [ContactController],
  providers: [ContactRepository, ContactService],
})
export class ContactModule {}
