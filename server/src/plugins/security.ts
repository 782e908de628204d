import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Security headers. The CSP admits only what the web app loads: Google sign-in and Tenor GIFs. */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      crossOriginEmbedderPolicy: false,
      // Google Identity Services opens its popup and needs the opener relation kept.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
          styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
          imgSrc: ["'self'", 'data:', 'blob:', 'https://media.tenor.com', 'https://*.googleusercontent.com'],
          // GIF search goes through the server (the Tenor key stays there); only previews load from Tenor.
          connectSrc: ["'self'", 'https://accounts.google.com/gsi/'],
          frameSrc: ['https://accounts.google.com/gsi/'],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
    });
  },
  { name: 'security' },
);
