import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../lib/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** `app.mailer`: SMTP_URL when set, otherwise message files in `$DATA_DIR/outbox`. */
export const mailerPlugin = fp(
  async (app: FastifyInstance, opts: { mailer?: Mailer }) => {
    app.decorate(
      'mailer',
      opts.mailer ??
        createMailer({
          smtpUrl: app.config.smtpUrl,
          from: app.config.mailFrom,
          outboxDir: join(app.config.dataDir, 'outbox'),
          log: app.log,
        }),
    );
  },
  { name: 'mailer', dependencies: ['database'] },
);
