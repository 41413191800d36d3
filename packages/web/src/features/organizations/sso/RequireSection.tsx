import '@mantine/core/styles/Switch.css';
import { useState } from 'react';
import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CompanySsoSettings } from '@portal/contracts';
import { Section } from '../../../components/Section';
import { ApiError, errorText, notify } from '../../../lib/api';
import { setRequireSso, useSsoChange } from '../api';
import { FailureAlert } from '../../../components/FailureAlert';

/** Require SSO: members then sign in only through the identity provider. */
export function RequireSection({ settings }: { settings: CompanySsoSettings }) {
  const { t } = useTranslation();
  const change = useSsoChange(setRequireSso);
  const [failure, setFailure] = useState<string | null>(null);
  const toggle = async (on: boolean) => {
    setFailure(null);
    try {
      await change.mutateAsync([on]);
      notify('success', on ? t('organizations.sso.require.on') : t('organizations.sso.require.off'));
    } catch (error) {
      if (error instanceof ApiError) setFailure(errorText(error));
    }
  };
  return (
    <Section title={t('organizations.sso.require.title')} description={t('organizations.sso.require.description')}>
      <Switch
        label={t('organizations.sso.require.label')}
        description={settings.protocol ? undefined : t('organizations.sso.require.needsProvider')}
        checked={change.isPending ? (change.variables?.[0] ?? settings.require_sso) : settings.require_sso}
        disabled={!settings.protocol || change.isPending}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        data-testid="sso-require"
      />
      <FailureAlert failure={failure} />
    </Section>
  );
}
