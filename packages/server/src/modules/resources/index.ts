/** The resources module: languages and countries. */
export { resourcesRoutes } from './routes';
