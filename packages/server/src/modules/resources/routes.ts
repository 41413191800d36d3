import { resourceEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import { countryList } from './countries';
import { languageFor } from '../../platform/geo';

export const resourcesRoutes: FastifyPluginAsync = async (app) => {
  route(app, resourceEndpoints.lang, async (request) => ({ lang: languageFor(request.ip, request.headers['accept-language']) }));
  route(app, resourceEndpoints.countries, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=86400');
    return countryList;
  });
};
