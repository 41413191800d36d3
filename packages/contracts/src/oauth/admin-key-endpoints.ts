import { z } from 'zod';
import { dropSigningKeyRequestSchema, rotatedSigningKeysSchema, rotateSigningKeysRequestSchema, signingKeyListSchema } from './admin-key-schemas';
import { endpointIn, operatorGroup } from '../endpoint';

/** The provider's signing keys in the operators' console: owners only (a key signs every token). */
const owners = operatorGroup('admin:keys', ['owner']);

export const listSigningKeys = endpointIn(owners, 'GET /admin/signing-keys', 'The signing keys and their states (published, signing, retiring, expired); never a private part', {
  response: signingKeyListSchema,
});

export const rotateSigningKeys = endpointIn(owners, 'POST /admin/signing-keys/rotate', 'New signing keys: published at once, signing after the publish delay (or from each node’s next reload when immediately)', {
  body: rotateSigningKeysRequestSchema, response: rotatedSigningKeysSchema,
});

export const dropSigningKey = endpointIn(owners, 'DELETE /admin/signing-keys/{kid}', 'Remove a key at once (a leaked one, after rotating now); a key that signs now is refused', {
  params: z.object({ kid: z.string().regex(/^[\w-]{1,64}$/) }), body: dropSigningKeyRequestSchema, response: null,
  errors: ['admin.not_found', 'admin.key_signing'],
});
