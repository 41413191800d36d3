import '@mantine/core/styles/Code.css';
import { Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CompanySsoSettings } from '@portal/contracts';
import { Section } from '../../../components/Section';

/** The addresses to register at the identity provider. */
export function RegistrationSection({ settings }: { settings: CompanySsoSettings }) {
  const { t } = useTranslation();
  const registration = settings.registration!;
  const rows =
    settings.protocol === 'saml'
      ? [
          [t('organizations.sso.registration.acs'), registration.saml_acs_url],
          [t('organizations.sso.registration.entityId'), registration.saml_entity_id],
        ]
      : registration.oidc_redirect_uris.map((uri) => [t('organizations.sso.registration.redirectUri'), uri]);
  return (
    <Section title={t('organizations.sso.registration.title')} description={t('organizations.sso.registration.description')}>
      <Stack gap={6} data-testid="sso-registration">
        {rows.map(([label, value]) => (
          <Group key={value} gap="xs" wrap="wrap">
            <Text size="sm" fw={500}>
              {label}
            </Text>
            {/* A long address wraps inside the section (a phone is narrower than a redirect URI). */}
            <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
          </Group>
        ))}
      </Stack>
    </Section>
  );
}
