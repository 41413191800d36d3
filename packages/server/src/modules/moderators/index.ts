/** The moderators module: a product's website moderators (invited by the product's back end), their invitation links and the website's notifications. */
export { createModeratorService, type ModeratorDependencies, type ModeratorService, type ProductCaller } from './service';
export { moderatorRoutes, type ProductTokenCheck } from './routes';
export { moderatorsModule } from './module';
