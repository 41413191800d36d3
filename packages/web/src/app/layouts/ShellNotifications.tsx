import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Indicator.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/ScrollArea.css';
import { ActionIcon, Box, Group, Indicator, Menu, ScrollArea, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, notificationEndpoints, type Notification } from '@portal/contracts';
import { call } from '../../lib/api';
import { notificationLink } from '../../lib/notification-link';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { useLanguage } from '../../lib/use-language';

/**
 * The header's notification bell (the spec's entities and state rules). Its accents (the
 * unread dot, "mark all read") are the brand's primary colour: Locker's green on its host.
 */

export const notificationsQueryKey = ['notifications'] as const;
const PAGE_SIZE = 20;
const POLL_MS = 60_000;

/**
 * The first page. A background widget: its failures show in the menu
 * rather than as toasts or redirects (a 404 would otherwise send the user home).
 */
export const fetchNotifications = () => call(notificationEndpoints.list, { query: { page: 1, page_size: PAGE_SIZE } }, { handle: 'all' });

/** A notification already gone (404) is no news. */
export const markNotificationRead = (id: string) => call(notificationEndpoints.markRead, { params: { id }, body: { read: true } }, { handle: [404] });
export const markAllNotificationsRead = () => call(notificationEndpoints.markAllRead);

export function ShellNotifications() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { productLinks } = useRuntimeConfig();
  const client = useQueryClient();
  const language = useLanguage();
  const list = useQuery({ queryKey: notificationsQueryKey, queryFn: fetchNotifications, refetchInterval: POLL_MS });
  const reload = () => client.invalidateQueries({ queryKey: notificationsQueryKey });
  const markRead = useMutation({ mutationFn: markNotificationRead, onSettled: reload });
  const markAll = useMutation({ mutationFn: markAllNotificationsRead, onSettled: reload });
  const unread = list.data?.unread_count ?? 0;

  // The spec's state rules: marked read on click, then the list is reloaded, then on to its page.
  const open = async (notification: Notification) => {
    if (!notification.read) await markRead.mutateAsync(notification.id).catch(() => undefined);
    const link = notificationLink(notification, productLinks);
    if (link?.kind === 'internal') void navigate(link.to);
    else if (link?.kind === 'external') window.location.assign(link.href);
  };

  return (
    // The count wraps the menu, not the other way round: the menu's target (and its
    // aria-expanded) must be the button itself.
    <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} offset={4} color="red" data-testid="notifications-count">
    {/* No focus placeholder: Mantine's is a focusable role=presentation div, which a menu may not hold (axe). */}
    <Menu position="bottom-end" width={360} shadow="md" withinPortal withInitialFocusPlaceholder={false} onOpen={() => void list.refetch()}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={unread > 0 ? t('shell.notifications.labelUnread', { count: unread }) : t('shell.notifications.label')}
          data-testid="notifications-bell"
        >
          <BellIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="notifications-menu">
        {/* A menu's parts are its items: "mark all read" is one (it keeps the menu open), the title is plain text. */}
        <Group justify="space-between" wrap="nowrap" px="sm" py={6}>
          <Text component="span" fw={600} size="sm">
            {t('shell.notifications.title')}
          </Text>
          {unread > 0 && (
            <Menu.Item onClick={() => markAll.mutate()} closeMenuOnClick={false} w="auto" px={6} py={2} fz="xs" fw={500} c="var(--mantine-primary-color-filled)">
              {t('shell.notifications.markAllRead')}
            </Menu.Item>
          )}
        </Group>
        <Menu.Divider />
        {/* A menu holds menu items: with nothing to list, its words are its one (inactive) item. */}
        {list.isError || !list.data?.items.length ? (
          // Full strength (a disabled item is faded): these are words to read, not an option.
          <Menu.Item disabled style={{ opacity: 1, cursor: 'default' }} data-testid="notifications-empty">
            <Text size="sm" c="dimmed">
              {t(list.isError ? 'shell.notifications.loadFailed' : 'shell.notifications.empty')}
            </Text>
          </Menu.Item>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            {list.data.items.map((notification) => (
              <Menu.Item key={notification.id} onClick={() => void open(notification)} data-testid="notification-item" data-read={notification.read}>
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  <Box
                    mt={6}
                    w={8}
                    h={8}
                    style={{ flex: 'none', borderRadius: '50%', background: notification.read ? 'transparent' : 'var(--mantine-primary-color-filled)' }}
                    aria-label={notification.read ? undefined : t('shell.notifications.unread')}
                  />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={notification.read ? 400 : 600} lineClamp={2}>
                      {notification.title}
                    </Text>
                    {notification.body && (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {notification.body}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {formatDateTime(notification.created_at, language)}
                    </Text>
                  </Stack>
                </Group>
              </Menu.Item>
            ))}
          </ScrollArea.Autosize>
        )}
      </Menu.Dropdown>
    </Menu>
    </Indicator>
  );
}

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </svg>
  );
}
