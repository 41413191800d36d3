import { z } from 'zod';
import { avatarResponseSchema } from './schemas';
import { endpoint } from '../endpoint';

/** Profile pictures, served from our own origin so pages never load pictures from elsewhere. */
const tag = 'account';

export const upload = endpoint({
  method: 'PUT',
  path: '/sso/me/avatar',
  tag,
  auth: { scope: 'me:write' },
  summary: 'Upload a profile picture (multipart field `file`: PNG, JPEG or WebP, at most 5 MB); stored as a 256x256 WebP',
  body: 'multipart',
  response: avatarResponseSchema,
  errors: ['account.avatar_invalid', 'payload_too_large', 'unsupported_media_type'],
});

export const remove = endpoint({
  method: 'DELETE',
  path: '/sso/me/avatar',
  tag,
  auth: { scope: 'me:write' },
  summary: 'Remove the profile picture',
  response: null,
});

export const picture = endpoint({
  method: 'GET',
  path: '/sso/users/{id}/avatar',
  tag,
  auth: 'public',
  summary: 'A profile picture (public, like the picture beside a name); `?v=` makes the answer cacheable forever',
  params: z.object({ id: z.string().max(64) }),
  query: z.object({ v: z.string().max(20).optional() }),
  response: 'binary',
  errors: ['not_found'],
});
