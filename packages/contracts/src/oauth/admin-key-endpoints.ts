import { z } from 'zod';
import { dropSigningKeyRequestSchema, rotatedSigningKeysSchema, rotateSigningKeysRequestSchema, signingKeyListSchema } from './admin-key-schemas';
import { endpoint } from '../endpoint';

/** The provider's signing keys in the operators' console: owners only (a key signs every token). */
const tag = 'admin';
const owners = { operator: ['owner'], adminScope: 'admin:keys' } as const;

export const listSigningKeys = endpoint({
  method: 'GET',
  path: '/admin/signing-keys',
  tag,
  auth: owners,
  summary: 'The signing keys and their states (published, signing, retiring, expired); never a private part',
  response: signingKeyListSchema,
});

export const rotateSigningKeys = endpoint({
  method: 'POST',
  path: '/admin/signing-keys/rotate',
  tag,
  auth: owners,
  summary: 'New signing keys: published at once, signing after the publish delay (or from each node’s next reload when immediately)',
  body: rotateSigningKeysRequestSchema,
  response: rotatedSigningKeysSchema,
});

export const dropSigningKey = endpoint({
  method: 'DELETE',
  path: '/admin/signing-keys/{kid}',
  tag,
  auth: owners,
  summary: 'Remove a key at once (a leaked one, after rotating now); a key that signs now is refused',
  params: z.object({ kid: z.string().regex(/^[\w-]{1,64}$/) }),
  body: dropSigningKeyRequestSchema,
  response: null,
  errors: ['admin.not_found', 'admin.key_signing'],
});
