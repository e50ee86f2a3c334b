// Where mails go: an SMTP server (SMTP_URL, with bounded timeouts), or, without one, `.eml` files under
// DATA_DIR/outbox that an operator can open (each one is also logged).
import * as fs from 'node:fs';
import * as path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingMail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function createMailTransport(options: { smtpUrl: string | null; dataDir: string; logger: Logger }): MailTransport {
  const { logger } = options;
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as never);
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await transporter.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, messageId: `<${mail.id}@arl>` });
        logger.info({ mailId: mail.id, messageId: info.messageId }, 'mail sent');
      },
      close: () => transporter.close(),
    };
  }
  const dir = path.join(options.dataDir, 'outbox');
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(mail) {
      const info = await writer.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, messageId: `<${mail.id}@arl>` });
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${mail.id}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      logger.info({ mailId: mail.id, file, subject: mail.subject }, 'no SMTP_URL: mail written to the outbox folder');
    },
    close: () => writer.close(),
  };
}
