import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CurrentService } from '../lib/service';
import { IntroSlider } from './IntroSlider';
import classes from './ServicePanel.module.css';

/**
 * The public pages' side panel: which service this sign-in is for, and what it offers.
 * On small screens only the name shows, so the form stays above the fold.
 */
export function ServicePanel({ service }: { service: CurrentService }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xl" component="section" aria-label={t('layout.service.introLabel', { service: service.entry.name })}>
      <Text fz="xl" fw={700} c="white" data-testid="service-name">
        {service.entry.name}
      </Text>
      <div className={classes.intro}>
        <IntroSlider key={service.key} service={service} />
      </div>
    </Stack>
  );
}
