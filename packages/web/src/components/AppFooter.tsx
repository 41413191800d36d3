import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useBrand, useRuntimeConfig } from '../lib/runtime-context';

/** The brand's website, Terms and Privacy: pages of the company's public sites, opened in a new tab. */
export function AppFooter() {
  const { t } = useTranslation();
  const brand = useBrand();
  const { mainSiteUrl, termsUrl, privacyUrl } = useRuntimeConfig();
  const links = [
    { href: mainSiteUrl, label: t('layout.mainSite', { brand: brand.name }), id: 'site' },
    { href: termsUrl, label: t('layout.terms'), id: 'terms' },
    { href: privacyUrl, label: t('layout.privacy'), id: 'privacy' },
  ];
  return (
    <Group component="footer" justify="space-between" gap="xs" py="md">
      <Text size="xs" c="dimmed">
        {t('layout.footer', { year: new Date().getFullYear() })}
      </Text>
      <Group gap="md" wrap="wrap">
        {links.map((link) => (
          <Anchor key={link.id} href={link.href} target="_blank" rel="noopener noreferrer" size="xs" c="dimmed" data-testid={`footer-${link.id}`}>
            {link.label}
          </Anchor>
        ))}
      </Group>
    </Group>
  );
}
