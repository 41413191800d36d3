/** The resources module: languages and countries. */
export { resourcesRoutes } from './routes';
export { resourcesModule } from './module';
