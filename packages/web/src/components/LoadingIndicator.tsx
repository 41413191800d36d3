import '@mantine/core/styles/Loader.css';
import { Group, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Part of a page whose data is still on its way (a list, a section, a card form): Mantine's
 * loader, announced as a status named "Loading…". A bare Loader is a span, which may not carry
 * an aria-label without a role (axe: aria-prohibited-attr). The text is the public catalogue's,
 * which ships with the app, so the name is never a key waiting for its catalogue.
 * `data-testid="loading"`: the screen walks (e2e/support/screens.ts) wait until none is left.
 */
export function LoadingIndicator() {
  const { t } = useTranslation();
  return <Loader size="sm" role="status" aria-label={t('app.loading')} data-testid="loading" />;
}

/** A whole page still waiting for what it shows: the indicator, centred where the page will be. */
export function PageLoading() {
  return (
    <Group justify="center" py="xl">
      <LoadingIndicator />
    </Group>
  );
}
