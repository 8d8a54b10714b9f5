import { createHashRouter } from 'react-router';
import { routes } from './routes';

/** The app's hash router (spec platform §2: routing uses the hash form). */
export const router = createHashRouter(routes);
