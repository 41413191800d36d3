import { z } from 'zod';

export const languageSchema = z.enum(['en', 'vi']);

export const langResponseSchema = z.object({ lang: languageSchema });
export type LangResponse = z.infer<typeof langResponseSchema>;

export const countrySchema = z.object({
  code: z.string().length(2),
  name: z.object({ en: z.string(), vi: z.string() }),
});
export const countriesResponseSchema = z.array(countrySchema);
export type Country = z.infer<typeof countrySchema>;
