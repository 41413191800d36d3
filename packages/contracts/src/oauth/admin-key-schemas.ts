import { z } from 'zod';
import { adminReasonSchema } from '../operators/roles';

/**
 * The provider's signing keys in the operators' console. A key's state:
 * - `published`: in the JWKS ahead of its activation (or a spare), not signing;
 * - `signing`: the key new tokens of its algorithm are signed with;
 * - `retiring`: replaced, still published so the tokens it signed verify until `published_until`;
 * - `expired`: no longer published; the next rotation removes it.
 */
export const signingKeyStates = ['published', 'signing', 'retiring', 'expired'] as const;
export type SigningKeyState = (typeof signingKeyStates)[number];

export const signingKeySchema = z.object({
  kid: z.string(),
  alg: z.string(),
  state: z.enum(signingKeyStates),
  created_at: z.string(),
  activates_at: z.string(),
  retired_at: z.string().nullable(),
  /** When it leaves the JWKS (its retirement plus the grace); null while it is current. */
  published_until: z.string().nullable(),
});
export type SigningKey = z.infer<typeof signingKeySchema>;

export const signingKeyListSchema = z.object({
  keys: z.array(signingKeySchema),
  /** Every node reads its keys again this often: a rotation reaches all of them within it. */
  reload_seconds: z.number().int(),
  /** How long after a rotation the new keys start signing (unless rotated now). */
  publish_ahead_seconds: z.number().int(),
});

export const rotateSigningKeysRequestSchema = z.object({
  /** For a leaked key: the new keys sign from each node's next reload instead of after publish_ahead_seconds. */
  immediately: z.boolean().default(false),
  reason: adminReasonSchema,
});
export type RotateSigningKeysRequest = z.input<typeof rotateSigningKeysRequestSchema>;

export const rotatedSigningKeysSchema = z.object({
  kids: z.array(z.string()),
  activates_at: z.string(),
  retired: z.number().int(),
  dropped: z.number().int(),
});

export const dropSigningKeyRequestSchema = z.object({ reason: adminReasonSchema });
