import { countriesResponseSchema, langResponseSchema } from './schemas';
import { endpoint } from '../endpoint';
import * as firstPaint from '../first-paint';

const tag = 'resources';

export const lang = endpoint({
  ...firstPaint.lang,
  tag,
  auth: 'public',
  summary: 'Language for this visitor by IP, then Accept-Language',
  response: langResponseSchema,
});

export const countries = endpoint({
  method: 'GET',
  path: '/resources/countries',
  tag,
  auth: 'public',
  summary: 'Every country with English and Vietnamese names',
  response: countriesResponseSchema,
});
