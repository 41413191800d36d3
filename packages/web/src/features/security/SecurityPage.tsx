import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

const parts = [
  { to: paths.securityPassword, key: 'password' },
  { to: paths.securityDeviceActivity, key: 'deviceActivity' },
  { to: paths.securityTwoStep, key: 'twoStep' },
  { to: paths.securityWebauthn, key: 'passkeys' },
] as const;

/** /security: the overview, one section per security page. */
export function SecurityPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('security.title')} description={t('security.description')} />
      {parts.map(({ to, key }) => (
        <Section key={key} title={t(`security.${key}.title`)} description={t(`security.${key}.description`)}>
          <Anchor component={Link} to={to} size="sm" aria-label={`${t('security.open')}: ${t(`security.${key}.title`)}`}>
            {t('security.open')}
          </Anchor>
        </Section>
      ))}
    </Stack>
  );
}
