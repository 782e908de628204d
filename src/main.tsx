import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { registerServiceWorker } from './app/pwa';
import { createAppRouter } from './app/router';
import { getI18n } from './lib/i18n';
import { getDb } from './lib/db/db';
import { startCacheUpkeep } from './lib/db/prune';
import { startOutbox } from './lib/outbox/outbox';
import { loadPublicConfig } from './lib/public-config';
import { queryClient } from './lib/query/client';
import './app/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

const i18n = getI18n();
const router = createAppRouter();

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

startOutbox();
startCacheUpkeep();
loadPublicConfig(queryClient, getDb().name);
registerServiceWorker();
