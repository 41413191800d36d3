export const notificationErrors = {
  'notifications.not_found': { status: 404, message: 'Notification not found' },
} as const;
