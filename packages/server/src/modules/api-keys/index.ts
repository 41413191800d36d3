/** The api-keys module: personal API keys and how the guard authenticates them; the bearer key store the operators' admin keys use too. */
export { createApiKeyService, type ApiKeyService } from './service';
export { apiKeyRoutes } from './routes';
export { apiKeysModule } from './module';
export { bearerKeyStore, toKeyDto, type KeyRow } from './key-store';
export { revokeApiKeysUnlessSsoSince } from './sso-bound';
