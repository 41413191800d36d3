import { z } from 'zod';
import { avatarResponseSchema } from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** Profile pictures, served from our own origin so pages never load pictures from elsewhere. */
const tag = 'account';
const writers = { tag, auth: { scope: 'me:write' } } as const;
const { anyone } = endpointGroups(tag);

export const upload = endpointIn(writers, 'PUT /sso/me/avatar', 'Upload a profile picture (multipart field `file`: PNG, JPEG or WebP, at most 5 MB); stored as a 256x256 WebP', {
  body: 'multipart', response: avatarResponseSchema, errors: ['account.avatar_invalid', 'payload_too_large', 'unsupported_media_type'],
});

export const remove = endpointIn(writers, 'DELETE /sso/me/avatar', 'Remove the profile picture', { response: null });

export const picture = endpointIn(anyone, 'GET /sso/users/{id}/avatar', 'A profile picture (public, like the picture beside a name); `?v=` makes the answer cacheable forever', {
  params: z.object({ id: z.string().max(64) }), query: z.object({ v: z.string().max(20).optional() }), response: 'binary',
  errors: ['not_found'],
});
