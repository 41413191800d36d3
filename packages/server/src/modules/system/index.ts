/** The system module: health and readiness, and the web app's pages. */
export { healthRoutes } from './routes';
export { installWebApp } from './web-app';
export { systemModule } from './module';
