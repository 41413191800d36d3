import { useEffect, useState } from 'react';
import { Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE } from '@portal/contracts';
import type { CurrentService } from '../lib/service';
import classes from './IntroSlider.module.css';

const ADVANCE_MS = 7000;

interface Slide {
  title: string;
  body: string;
}

/**
 * Each service's slides in each language (i18n/slides/<service>.<language>.json), one small
 * chunk apiece: a page fetches only the current service's, not all ten services' copy.
 */
const slideFiles = import.meta.glob<Slide[]>('../i18n/slides/*.json', { import: 'default' });
const loadedSlides = new Map<string, Slide[]>();

async function loadSlides(key: string, language: string): Promise<Slide[]> {
  const load = slideFiles[`../i18n/slides/${key}.${language}.json`] ?? slideFiles[`../i18n/slides/${key}.${DEFAULT_LANGUAGE}.json`];
  return load ? await load() : [];
}

/**
 * The service's intro slides (copy in i18n/slides, fetched for the service and language
 * shown). They advance on their own unless the visitor prefers reduced motion; the dots let
 * anyone pick one. Render it keyed by the service so a change of service starts again at
 * the first slide.
 */
export function IntroSlider({ service }: { service: CurrentService }) {
  const { t, i18n } = useTranslation();
  const id = `${service.key}.${i18n.resolvedLanguage ?? DEFAULT_LANGUAGE}`;
  const [, setLoaded] = useState(0);
  const slides = loadedSlides.get(id) ?? [];
  const [index, setIndex] = useState(0);

  useEffect(() => {
    if (loadedSlides.has(id)) return;
    let active = true;
    const [key, language] = id.split('.') as [string, string];
    void loadSlides(key, language).then(
      (loaded) => {
        loadedSlides.set(id, loaded);
        if (active) setLoaded((count) => count + 1);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [id]);
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
        <Text c="white">
          {slide.body}
        </Text>
      </Stack>
      {count > 1 && (
        <Group gap={0}>
          {slides.map((item, position) => (
            <UnstyledButton
              key={item.title}
              className={classes.dot}
              data-active={position === index || undefined}
              aria-label={t('layout.service.showSlide', { number: position + 1 })}
              aria-current={position === index || undefined}
              onClick={() => setIndex(position)}
            />
          ))}
        </Group>
      )}
    </Stack>
  );
}
