import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../lib/mailer.js';

/** Messages this process sent and failed to send since it started (the metrics report them). */
export interface MailCounts {
  sent: number;
  failed: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    mailCounts: MailCounts;
  }
}

/** `app.mailer`: SMTP_URL when set, otherwise message files in `$DATA_DIR/outbox`; each send counted. */
export const mailerPlugin = fp(
  async (app: FastifyInstance, opts: { mailer?: Mailer }) => {
    const mailer =
      opts.mailer ??
      createMailer({
        smtpUrl: app.config.smtpUrl,
        from: app.config.mailFrom,
        outboxDir: join(app.config.dataDir, 'outbox'),
        log: app.log,
      });
    const counts: MailCounts = { sent: 0, failed: 0 };
    app.decorate('mailCounts', counts);
    app.decorate('mailer', {
      async send(message) {
        try {
          await mailer.send(message);
          counts.sent += 1;
        } catch (err) {
          counts.failed += 1;
          throw err;
        }
      },
    } satisfies Mailer);
  },
  { name: 'mailer', dependencies: ['database'] },
);
