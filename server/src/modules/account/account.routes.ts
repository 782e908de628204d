import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { infoMessage } from '#core/errors';
import { ErrorReplies, MessageReply } from '../../lib/schemas';
import {
  AccountReply,
  BioBody,
  EmailBody,
  LanguageBody,
  LanguageReply,
  NotificationSettingsBody,
  NotificationSettingsReply,
  PasswordBody,
  UsernameBody,
  UsernameReply,
} from './account.schemas';
import * as service from './account.service';

const replies = <T>(ok: T) => ({ 200: ok, ...ErrorReplies });

/** The caller's own account. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/account/get', { schema: { response: replies(AccountReply) } }, async (request) => {
    const viewer = await request.requireViewer();
    return { user: service.getAccount(viewer) };
  });

  app.patch(
    '/account/changebio',
    { schema: { body: BioBody, response: replies(MessageReply) }, config: { invalidKey: 'max_bio_length' } },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.changeBio(app, viewer, request.body.bio);
      return { message: infoMessage('bio_updated') };
    },
  );

  app.patch(
    '/account/changeusername',
    { schema: { body: UsernameBody, response: replies(UsernameReply) }, config: { invalidKey: 'new_username' } },
    async (request) => {
      const viewer = await request.requireViewer();
      const username = await service.changeUsername(app, viewer, request.body.newUsername);
      return { message: infoMessage('account_updated'), username };
    },
  );

  app.patch(
    '/account/changeemail',
    { schema: { body: EmailBody, response: replies(MessageReply) }, config: { invalidKey: 'invalid_email' } },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.changeEmail(app, viewer, { email: request.body.email, password: request.body.password ?? '' });
      return { message: infoMessage('email_send') };
    },
  );

  app.patch(
    '/account/changepassword',
    { schema: { body: PasswordBody, response: replies(MessageReply) }, config: { invalidKey: 'new_password' } },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.changePassword(app, viewer, { oldPassword: request.body.oldPassword ?? '', newPassword: request.body.newPassword });
      return { message: infoMessage('account_updated') };
    },
  );

  app.patch(
    '/account/language',
    { schema: { body: LanguageBody, response: replies(LanguageReply) }, config: { invalidKey: 'invalid_settings' } },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.changeLanguage(app, viewer, request.body.language);
      return { message: infoMessage('settings_updated'), language: request.body.language };
    },
  );

  app.post('/account/notifications', { schema: { response: replies(NotificationSettingsReply) } }, async (request) => {
    const viewer = await request.requireViewer();
    return { notifications: service.getNotificationSettings(viewer) };
  });

  app.patch(
    '/account/notifications',
    {
      schema: { body: NotificationSettingsBody, response: replies(NotificationSettingsReply) },
      config: { invalidKey: 'invalid_settings' },
    },
    async (request) => {
      const viewer = await request.requireViewer();
      const notifications = await service.changeNotificationSettings(app, viewer, request.body.newSettings);
      return { message: infoMessage('settings_updated'), notifications };
    },
  );

  app.delete('/account/delete', { schema: { response: replies(MessageReply) } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.deleteAccount(app, viewer);
    return { message: infoMessage('account_deleted') };
  });
};
