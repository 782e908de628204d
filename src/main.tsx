import './app/shell/theme-init';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { getI18n, loadLanguage } from './lib/i18n';
import { queryClient } from './lib/query/client';
import { preloadFirstPicture, takeFirstFeed } from './lib/query/first-feed';
import { currentAddress, followOldHashAddresses, replaceOldHashAddress } from './lib/old-hash-address';
import './app/styles.css';
// What the feed's first screen is drawn with, in the stylesheet the page inlines: the server's plain
// HTML cards of the page at `/` paint styled before any script (their own stylesheets would wait).
import './features/feed/feed.css';
import './components/ListingControls.css';
import './components/post/post-card.css';
import './components/Avatar.css';
import './components/LikeButton.css';
import './components/Tooltip.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// A first visit to the feed comes with its first page in the HTML: its first picture, the largest
// paint on a phone, is asked for before anything else.
replaceOldHashAddress();
const firstFeed = takeFirstFeed(currentAddress());
if (firstFeed) preloadFirstPicture(firstFeed);

const i18n = getI18n();
// Creating the router starts fetching the first page's chunk; the language's texts come beside it.
const router = createAppRouter();
followOldHashAddresses((path) => router.navigate(path, { replace: true }));
const language = loadLanguage(i18n.language, i18n).then((lng) => i18n.changeLanguage(lng));
// Opening on the feed, its first page is asked for beside that code too (its pictures wait for it),
// unless the HTML carried it.
void import('./lib/query/feed-prefetch').then(({ prefetchFirstFeedPage }) => prefetchFirstFeedPage(queryClient, currentAddress(), firstFeed));
const firstPage = new Promise<void>((resolve) => {
  if (router.state.initialized) return resolve();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    resolve();
  });
});

// Until both are here the static shell of index.html stays on screen, so nothing flashes empty;
// drawing replaces it. Offline without either, the app still draws (the router shows its error).
// As a transition, the first render yields to the browser between components instead of holding
// the main thread in one long task (a slow phone stays responsive to a tap meanwhile).
void Promise.allSettled([language, firstPage]).then(() => {
  const app = createRoot(root);
  startTransition(() => {
    app.render(
      <StrictMode>
        <AppProviders queryClient={queryClient} i18n={i18n}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
  // The outbox, cache upkeep and the service worker (whose install downloads the whole app) start
  // once the page has loaded, so they do not compete with the first screen for the network.
  const start = () => void import('./app/start').then(({ startBackgroundWork }) => startBackgroundWork());
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
});
