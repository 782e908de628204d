import { createBrowserRouter } from 'react-router-dom';
import { routes } from './routes';

/**
 * Real paths (`/p/<id>`): the server sees the whole address, so a shared link can be previewed and
 * the server answers every screen's path with the app (an old `/#/...` address is turned into its
 * path before the router starts: see old-hash-address.ts).
 */
export const createAppRouter = () => createBrowserRouter(routes);
