import { useEffect, useState } from 'react';
import { Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CurrentService } from '../lib/service';
import classes from './IntroSlider.module.css';

const ADVANCE_MS = 7000;

interface Slide {
  title: string;
  body: string;
}

/**
 * The service's intro slides (copy in `scopes.<id>.slides`). They advance on their own
 * unless the visitor prefers reduced motion; the dots let anyone pick one. Render it keyed
 * by the service so a change of service starts again at the first slide.
 */
export function IntroSlider({ service }: { service: CurrentService }) {
  const { t } = useTranslation();
  const slides = t(`scopes.${service.key}.slides`, { returnObjects: true }) as unknown as Slide[];
  const [index, setIndex] = useState(0);
  const count = slides.length;

  useEffect(() => {
    if (count < 2 || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), ADVANCE_MS);
    return () => clearInterval(timer);
  }, [count]);

  const slide = slides[Math.min(index, count - 1)];
  if (!slide) return null;

  return (
    <Stack gap="md" aria-roledescription="carousel">
      <Stack gap={6} aria-live="polite" className={classes.slide} key={`${service.key}-${index}`}>
        <Title order={2} fz="h3" c="white">
          {slide.title}
        </Title>
        <Text c="white" opacity={0.9}>
          {slide.body}
        </Text>
      </Stack>
      {count > 1 && (
        <Group gap={8}>
          {slides.map((item, position) => (
            <UnstyledButton
              key={item.title}
              className={classes.dot}
              data-active={position === index || undefined}
              aria-label={t('service.showSlide', { number: position + 1 })}
              aria-current={position === index || undefined}
              onClick={() => setIndex(position)}
            />
          ))}
        </Group>
      )}
    </Stack>
  );
}
