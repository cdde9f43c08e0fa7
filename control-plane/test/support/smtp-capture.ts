import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  replyTo: string | null;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  private waiters: Array<() => void> = [];
  private server: SMTPServer;

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = [parsed.to ?? []]
              .flat()
              .flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
            this.mails.push({
              to,
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              replyTo: parsed.replyTo?.text ?? null,
            });
            this.waiters.splice(0).forEach((wake) => wake());
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  static async start(): Promise<SmtpCapture> {
    const capture = new SmtpCapture();
    await new Promise<void>((resolve) => capture.server.listen(0, '127.0.0.1', resolve));
    return capture;
  }

  get url(): string {
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** Waits for the next mail to `to` that arrived after `since` mails. */
  async waitFor(
    to: string,
    options: { since?: number; timeoutMs?: number } = {},
  ): Promise<CapturedMail> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    const since = options.since ?? 0;
    for (;;) {
      const found = this.mails.slice(since).find((m) => m.to.includes(to.toLowerCase()));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${to} within the timeout`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The 6-digit code in the latest mail to `to`. */
  async codeFor(to: string, since?: number): Promise<string> {
    const mail = await this.waitFor(to, { since });
    const match = /\b(\d{6})\b/.exec(mail.text);
    if (!match?.[1]) throw new Error(`No 6-digit code in the mail to ${to}`);
    return match[1];
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
