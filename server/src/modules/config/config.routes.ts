import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const PublicConfig = Type.Object({
  googleClientId: Type.Union([Type.String(), Type.Null()]),
  tenorEnabled: Type.Boolean(),
});

/**
 * GET /config: the deployment settings the web app needs at run time (whether to offer Google
 * sign-in, and the GIF picker). Only public values: the client id is printed in every page anyway.
 */
export const configRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/config', { schema: { response: { 200: PublicConfig } } }, async () => ({
    googleClientId: app.config.googleClientId ?? null,
    tenorEnabled: !!app.config.tenorKey,
  }));
};
