import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  /** What the mail is for (`verify`, `reset_password`...): logged, unlike its text. */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where messages go when no SMTP server is configured. */
  outboxDir: string;
  log: FastifyBaseLogger;
}

/**
 * How long SMTP may keep a send waiting: well inside the job lease (30 s), so a mail server that
 * hangs fails the attempt (to be retried) rather than letting a second worker send it again.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 };

/** SMTP when configured; otherwise a folder of message files, so a fresh install works offline. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl
    ? new SmtpMailer(nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS }), options.from, options.log)
    : new OutboxMailer(options.outboxDir, options.from, options.log);
}

/**
 * The recipient as the log may name it: the first letter of the mailbox and the whole domain
 * (`p***@example.com`), enough to follow a complaint of mail that never came, not to read the list
 * of who signed up.
 */
export function maskedRecipient(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/**
 * Sends through SMTP, one log line per message: its kind, the masked recipient and the message id
 * the mail server can be searched by. Never the text, whose links carry sign-in and reset tokens.
 */
class SmtpMailer implements Mailer {
  constructor(
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const about = { kind: message.kind, to: maskedRecipient(message.to) };
    try {
      const sent = (await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text })) as { messageId?: string };
      this.log.info({ ...about, messageId: sent.messageId }, 'mail sent');
    } catch (err) {
      this.log.warn({ ...about, error: err instanceof Error ? err.message : String(err) }, 'mail not sent');
      throw err;
    }
  }
}

/**
 * Writes each message as a plain-text file (headers, blank line, body) named by time and
 * recipient. The body is written as is, never wrapped or encoded, so links can be copied whole.
 * This is the no-mail-server mode of a fresh install, so the log also carries the message's links:
 * whoever runs the server can follow a verification link from the console. With SMTP configured
 * nothing of a message is logged, since links carry sign-in and reset tokens.
 */
export class OutboxMailer implements Mailer {
  private sequence = 0;

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const now = new Date();
    // The sequence keeps names distinct and in order within one millisecond.
    this.sequence = (this.sequence + 1) % 1_000_000;
    const name = `${now.getTime()}-${String(this.sequence).padStart(6, '0')}-${outboxName(message.to)}.eml`;
    const headers = [
      `From: ${this.from}`,
      `To: ${message.to}`,
      `Subject: ${message.subject}`,
      `Date: ${now.toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
    ];
    // Written under a hidden name, then renamed: whoever reads the folder (a test, a developer's
    // mail viewer) sees a message only once it is whole, since a rename within a folder is atomic.
    const partial = join(this.dir, `.${name}.partial`);
    await writeFile(partial, `${headers.join('\n')}\n\n${message.text}\n`, 'utf8');
    await rename(partial, join(this.dir, name));
    const links = message.text.match(/https?:\/\/\S+/g) ?? [];
    this.log.info({ kind: message.kind, to: message.to, subject: message.subject, file: join(this.dir, name), links }, 'mail written to outbox');
  }
}

/** The recipient as a safe file-name part. */
export function outboxName(address: string): string {
  return address.toLowerCase().replace(/[^a-z0-9@._-]/g, '_');
}
