/** The api-keys module: personal API keys and how the guard authenticates them. */
export { createApiKeyService, type ApiKeyService } from './service';
export { apiKeyRoutes } from './routes';
export { apiKeysModule } from './module';
