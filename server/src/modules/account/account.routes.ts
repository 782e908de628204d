import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountApi } from '#core/api/account';
import { tooMany } from '../../lib/app-error.js';
import { routeWithContentType } from '../../lib/contract.js';
import { actionRoute, message, viewerRoute } from '../../lib/handlers.js';
import { InFlight } from '../../lib/in-flight.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { accountZip, attachmentDisposition, exportFileName } from './account.export.js';
import * as service from './account.service.js';

/** When a client refused as busy may ask again: an export of a large account takes about this long. */
const EXPORT_RETRY_SECONDS = 60;

/** The caller's own account. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route(viewerRoute(accountApi.get, (_request, viewer) => ({ user: service.getAccount(ctx, viewer) })));

  app.route(actionRoute(accountApi.changeBio, 'bio_updated', (request, viewer) => service.changeBio(ctx, viewer, request.body.bio)));

  app.route(
    viewerRoute(accountApi.changeUsername, async (request, viewer) => {
      const username = await service.changeUsername(ctx, viewer, request.body.newUsername);
      return { ...message('account_updated'), username };
    }),
  );

  app.route(
    actionRoute(accountApi.changeEmail, 'email_send', (request, viewer) =>
      service.changeEmail(ctx, viewer, { email: request.body.email, password: request.body.password ?? '' }),
    ),
  );

  app.route(
    actionRoute(accountApi.changePassword, 'account_updated', (request, viewer) =>
      service.changePassword(ctx, viewer, { oldPassword: request.body.oldPassword ?? '', newPassword: request.body.newPassword }),
    ),
  );

  app.route(
    viewerRoute(accountApi.changeLanguage, async (request, viewer) => {
      await service.changeLanguage(ctx, viewer, request.body.language);
      return { ...message('settings_updated'), language: request.body.language };
    }),
  );

  app.route(
    viewerRoute(accountApi.changeDiscovery, async (request, viewer) => ({
      ...message('settings_updated'),
      ...(await service.changeDiscovery(ctx, viewer, request.body)),
    })),
  );

  app.route(viewerRoute(accountApi.notificationSettings, (_request, viewer) => ({ notifications: service.getNotificationSettings(ctx, viewer) })));

  app.route(
    viewerRoute(accountApi.changeNotificationSettings, async (request, viewer) => {
      const notifications = await service.changeNotificationSettings(ctx, viewer, request.body.newSettings);
      return { ...message('settings_updated'), notifications };
    }),
  );

  // The zip is streamed as it is written, never serialised: its 200 is declared as application/zip.
  // Only a few are sent at once by this process (EXPORT_CONCURRENCY); the place is taken before the
  // hourly slot, so an export refused as busy costs the user none, and given back when the stream
  // ends, fails or its client goes away.
  const exportsInFlight = new InFlight(app.config.exportConcurrency);
  app.route({
    ...routeWithContentType(accountApi.export, 'application/zip'),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const leave = exportsInFlight.enter();
      if (!leave) {
        reply.header('Retry-After', String(EXPORT_RETRY_SECONDS));
        throw tooMany('export_busy');
      }
      const data = await service.gatherExport(ctx, viewer).catch((err: unknown) => {
        leave();
        throw err;
      });
      const now = new Date();
      const zip = accountZip(app.storage, data, now, request.log);
      zip.once('close', leave);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', attachmentDisposition(exportFileName(data.user.username, now)))
        .send(zip);
    },
  });

  app.route(
    actionRoute(accountApi.delete, 'account_deleted', async (request, viewer) => {
      await service.confirmDeletion(ctx, viewer, request.body);
      const fileKeys = await inNewTransaction(app, (ctx) => service.deleteAccount(ctx, viewer));
      await service.removeAccountFiles(ctx, viewer, fileKeys);
    }),
  );
};
