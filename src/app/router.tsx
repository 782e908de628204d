import { createHashRouter } from 'react-router-dom';
import { routes } from './routes';

/** Hash routing: the route lives after the #, so any static host serves the app. */
export const createAppRouter = () => createHashRouter(routes);
