import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '@portal/contracts';

export { notifications } from '@mantine/notifications';

/**
 * Toasts sit at the top right; below Mantine's `sm` breakpoint (48em, a phone) at the bottom
 * instead: there the toast is as wide as the screen, and at the top it lay over the title and
 * close button of an open dialog (a dialog on a phone starts a few pixels from the top).
 */
export function ToastHost() {
  // Read at once, not after a first render at the top: the first toast must not jump.
  const phone = useMediaQuery('(max-width: 47.99em)', undefined, { getInitialValueInEffect: false });
  return <Notifications autoClose={TOAST_DURATION_MS} position={phone ? 'bottom-center' : 'top-right'} />;
}
