import type { EndpointDeclaration } from '../endpoint';
import * as apiKeys from './api-keys';

/**
 * Every declared endpoint of `/v3`, for the server's declared-versus-registered check and
 * tooling. The web app imports the per-module namespaces from the package root instead, so a
 * page's bundle carries only the declarations it calls.
 */
export const endpointModules = { apiKeys } as const;

export const allEndpoints: readonly EndpointDeclaration[] = Object.values(endpointModules).flatMap((module) => Object.values(module));
