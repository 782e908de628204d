import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountApi } from '#core/api/account';
import { routeWithContentType } from '../../lib/contract.js';
import { actionRoute, message, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { accountZip, attachmentDisposition, exportFileName } from './account.export.js';
import * as service from './account.service.js';

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

  app.route(viewerRoute(accountApi.notificationSettings, (_request, viewer) => ({ notifications: service.getNotificationSettings(ctx, viewer) })));

  app.route(
    viewerRoute(accountApi.changeNotificationSettings, async (request, viewer) => {
      const notifications = await service.changeNotificationSettings(ctx, viewer, request.body.newSettings);
      return { ...message('settings_updated'), notifications };
    }),
  );

  // The zip is streamed as it is written, never serialised: its 200 is declared as application/zip.
  app.route({
    ...routeWithContentType(accountApi.export, 'application/zip'),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const data = await service.gatherExport(ctx, viewer);
      const now = new Date();
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', attachmentDisposition(exportFileName(data.user.username, now)))
        .send(accountZip(app.storage, data, now, request.log));
    },
  });

  app.route(
    actionRoute(accountApi.delete, 'account_deleted', async (_request, viewer) => {
      const groupKeys = await inNewTransaction(app, (ctx) => service.deleteAccount(ctx, viewer));
      await service.removeAccountFiles(ctx, viewer, groupKeys);
    }),
  );
};
