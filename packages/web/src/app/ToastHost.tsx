import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '@portal/contracts';

export { notifications } from '@mantine/notifications';

export function ToastHost() {
  return <Notifications autoClose={TOAST_DURATION_MS} position="top-right" />;
}
