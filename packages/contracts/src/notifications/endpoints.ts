import { z } from 'zod';
import { markNotificationRequestSchema, notificationListSchema, notificationSchema } from './schemas';
import { endpointIn } from '../endpoint';
import { pageQueryFields } from '../fields';

/** The signed-in user's notifications (the spec's entities, state rules and call list). API keys need notifications:read / :write. */
const tag = 'notifications';
const readers = { tag, auth: { scope: 'notifications:read' } } as const;
const writers = { tag, auth: { scope: 'notifications:write' } } as const;

export const list = endpointIn(readers, 'GET /notifications', 'A page of notifications, newest first, with the unread count', {
  query: z.object(pageQueryFields), response: notificationListSchema,
});

export const markAllRead = endpointIn(writers, 'PUT /notifications/read-all', 'Mark every notification read', {
  response: z.object({ updated: z.number().int() }),
});

export const markRead = endpointIn(writers, 'PUT /notifications/{id}', 'Mark a notification read (on click)', {
  params: z.object({ id: z.string().max(64) }), body: markNotificationRequestSchema, response: notificationSchema,
  errors: ['notifications.not_found'],
});
