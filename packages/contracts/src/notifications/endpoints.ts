import { z } from 'zod';
import { markNotificationRequestSchema, notificationListSchema, notificationSchema } from '../account/schemas';
import { endpoint } from '../endpoint';

/** The signed-in user's notifications (the spec's entities, state rules and call list). API keys need notifications:read / :write. */
const tag = 'notifications';

export const list = endpoint({
  method: 'GET',
  path: '/notifications',
  tag,
  auth: { scope: 'notifications:read' },
  summary: 'A page of notifications, newest first, with the unread count',
  query: z.object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  response: notificationListSchema,
});

export const markAllRead = endpoint({
  method: 'PUT',
  path: '/notifications/read-all',
  tag,
  auth: { scope: 'notifications:write' },
  summary: 'Mark every notification read',
  response: z.object({ updated: z.number().int() }),
});

export const markRead = endpoint({
  method: 'PUT',
  path: '/notifications/{id}',
  tag,
  auth: { scope: 'notifications:write' },
  summary: 'Mark a notification read (on click)',
  params: z.object({ id: z.string().max(64) }),
  body: markNotificationRequestSchema,
  response: notificationSchema,
  errors: ['notifications.not_found'],
});
