import { z } from 'zod';

/** Notifications (the spec's entities and state rules). GET /notifications?page=&page_size= ; PUT /notifications/{id} {read: true}; PUT /notifications/read-all. */
export const notificationTypes = ['reports', 'programs', 'programs/updates', 'transactions', 'other'] as const;
export const notificationSchema = z.object({
  id: z.string(),
  type: z.enum(notificationTypes),
  title: z.string(),
  body: z.string(),
  metadata: z.object({
    report_id: z.string().optional(),
    comment_id: z.string().optional(),
    program_alias: z.string().optional(),
    transaction_id: z.string().optional(),
  }),
  /** 'owner' when the user owns the program the notification is about. */
  target: z.enum(['owner', 'other']),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListSchema = z.object({ items: z.array(notificationSchema), unread_count: z.number().int(), total: z.number().int() });
export const markNotificationRequestSchema = z.object({ read: z.literal(true) });
