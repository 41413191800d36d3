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
      notify('success', on ? t('organization.sso.require.on') : t('organization.sso.require.off'));
    } catch (error) {
      if (error instanceof ApiError) setFailure(errorText(error));
    }
  };
  return (
    <Section title={t('organization.sso.require.title')} description={t('organization.sso.require.description')}>
      <Switch
        label={t('organization.sso.require.label')}
        description={settings.protocol ? undefined : t('organization.sso.require.needsProvider')}
        checked={change.isPending ? (change.variables?.[0] ?? settings.require_sso) : settings.require_sso}
        disabled={!settings.protocol || change.isPending}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        data-testid="sso-require"
      />
      <FailureAlert failure={failure} />
    </Section>
  );
}
