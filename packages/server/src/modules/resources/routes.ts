import { countriesResponseSchema, langResponseSchema } from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countryList } from './countries';
import { languageFor } from '../../platform/geo';

export const resourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/resources/lang',
    { schema: { tags: ['resources'], summary: 'Language for this visitor by IP, then Accept-Language', response: { 200: langResponseSchema } } },
    async (request) => ({ lang: languageFor(request.ip, request.headers['accept-language']) }),
  );
  app.get(
    '/resources/countries',
    { schema: { tags: ['resources'], summary: 'Every country with English and Vietnamese names', response: { 200: countriesResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return countryList;
    },
  );
};
