import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

/**
 * Sends mail through SMTP_URL. Without it (the local default) every mail is written to
 * DATA_DIR/outbox as an .eml file and, outside production, shown on the terminal, so a
 * newcomer can sign up offline. Structured logs never carry the body (it holds codes).
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('MailService');
  private readonly transport: Transporter;
  private readonly outboxDir: string | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.smtpUrl) {
      this.transport = createTransport(config.smtpUrl);
      this.outboxDir = null;
    } else {
      this.transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      this.outboxDir = join(config.dataDir, 'outbox');
    }
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info: { messageId?: string; message?: unknown } = await this.transport.sendMail({
      from: this.config.mailFrom,
      to: mail.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
    if (this.outboxDir) {
      const file = this.writeToOutbox(mail.to, info.message);
      this.logger.log(
        { file, subject: mail.subject },
        'Mail written to the outbox (SMTP_URL is not set)',
      );
      if (this.config.nodeEnv !== 'production') printToTerminal(mail, file);
    } else {
      this.logger.log({ messageId: info.messageId, subject: mail.subject }, 'Mail sent');
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  private writeToOutbox(to: string, message: unknown): string {
    const dir = this.outboxDir as string;
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(dir, `${stamp}-${to.replace(/[^a-zA-Z0-9@._-]/g, '_')}.eml`);
    writeFileSync(file, Buffer.isBuffer(message) ? message : String(message), { mode: 0o600 });
    return file;
  }
}

function printToTerminal(mail: OutgoingMail, file: string): void {
  const rule = '-'.repeat(72);
  process.stderr.write(
    `\n${rule}\n[dev outbox] To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n(saved as ${file})\n${rule}\n\n`,
  );
}
