import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONTACT_MESSAGES, type ContactRequest } from '@scn/proto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MailService } from '../mail/mail.service';
import { RATE_LIMITS } from '../rate-limit/rate-limit.rules';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { ContactRepository } from './contact.repository';

/** docs/product/calls.md#dashboard-calls: the contact form. Stored first, so nothing is lost if the mail server is down. */
@Injectable()
export class ContactService {
  private readonly logger = new Logger('ContactService');

  constructor(
    private readonly repository: ContactRepository,
    private readonly rateLimits: RateLimitService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(request: ContactRequest, ip: string, accountUuid: string | null): Promise<string> {
    await this.rateLimits.consume(RATE_LIMITS.contact(ip));
    const stored = await this.repository.insert({ ...request, ipAddress: ip, accountUuid });
    try {
      await this.mail.send({
        to: this.config.supportEmail,
        replyTo: request.email,
        subject: `[SCN support #${stored.id}] ${request.subject}`,
        text: `From: ${request.email}${accountUuid ? ` (account ${accountUuid})` : ''}\n\n${request.message}`,
      });
      await this.repository.markMailed(stored.id);
    } catch (error) {
      // Kept with mailed_at NULL: support reads unsent messages from the table.
      this.logger.error(
        { err: error, contactMessageId: stored.id },
        'Mailing a contact message failed',
      );
    }
    return CONTACT_MESSAGES.sent;
  }
}
