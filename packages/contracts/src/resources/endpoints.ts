import { countriesResponseSchema, langResponseSchema } from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';
import * as firstPaint from '../first-paint';

const { anyone } = endpointGroups('resources');

export const lang = endpointIn(anyone, firstPaint.lang, 'Language for this visitor by IP, then Accept-Language', { response: langResponseSchema });

export const countries = endpointIn(anyone, 'GET /resources/countries', 'Every country with English and Vietnamese names', {
  response: countriesResponseSchema,
});
