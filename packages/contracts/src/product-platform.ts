import { z } from 'zod';

/** `{product}_platform`: a product id of lower-case letters and digits (e.g. `locker`). */
export const productParams = z.object({ product: z.string() });
export const productPatterns = { product: '^[a-z][a-z0-9]{0,31}' } as const;
