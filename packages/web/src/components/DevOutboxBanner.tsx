import { Anchor, Text } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../lib/app-state';
import classes from './DevOutboxBanner.module.css';

/** The banner's height on the document element, for the layouts that fix a header under it. */
export const BANNER_HEIGHT_VAR = '--dev-outbox-banner-height';

/**
 * On every page while the server keeps mail in its dev outbox instead of sending it (no SMTP,
 * development, listening on localhost): nobody should mistake this for a real deployment, and
 * a developer learns where the codes and links went.
 */
export function DevOutboxBanner() {
  const { t } = useTranslation();
  const dev = useAppState((state) => state.dev);
  const banner = useRef<HTMLParagraphElement>(null);

  // Its height changes as the text wraps (a phone, Vietnamese): the fixed header follows it.
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement.style;
    const publish = () => root.setProperty(BANNER_HEIGHT_VAR, `${element.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty(BANNER_HEIGHT_VAR);
    };
  }, [dev]);

  if (!dev) return null;
  return (
    <Text ref={banner} role="status" data-testid="dev-outbox-banner" size="sm" ta="center" py={6} px="md" bg="#fef3c7" c="#78350f" className={classes.banner}>
      {t('app.devOutbox.banner')}{' '}
      <Anchor href="/dev/outbox" target="_blank" size="sm" c="#78350f" fw={600} underline="always">
        {t('app.devOutbox.open')}
      </Anchor>
    </Text>
  );
}
