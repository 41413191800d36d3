import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Radio.css';
import { useState, type FormEvent } from 'react';
import { Button, Group, PasswordInput, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CompanySsoSettings } from '@portal/contracts';
import { Section } from '../../../components/Section';
import { ApiError, errorText, fieldErrors, notify } from '../../../lib/api';
import { useForm } from '../../../lib/use-form';
import { required } from '../../../lib/validators';
import { setSsoProvider, useSsoChange } from '../api';
import { FailureAlert } from '../../../components/FailureAlert';

type Protocol = 'oidc' | 'saml';

/** The identifier and the identity provider: OpenID Connect (issuer, client id, write-only secret) or SAML 2.0 metadata. */
export function ProviderSection({ settings }: { settings: CompanySsoSettings }) {
  const { t } = useTranslation();
  const save = useSsoChange(setSsoProvider);
  const [failure, setFailure] = useState<string | null>(null);
  const hasSecret = settings.oidc?.has_client_secret ?? false;
  const form = useForm(
    {
      identifier: settings.identifier ?? '',
      protocol: (settings.protocol ?? 'oidc') as Protocol,
      issuer: settings.oidc?.issuer ?? '',
      clientId: settings.oidc?.client_id ?? '',
      clientSecret: '',
      metadata: '',
    },
    (values) =>
      values.protocol === 'oidc'
        ? { identifier: required, issuer: required, clientId: required, ...(hasSecret ? {} : { clientSecret: required }) }
        : { identifier: required, metadata: required },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (save.isPending || !form.check()) return;
    const { identifier, protocol, issuer, clientId, clientSecret, metadata } = form.values;
    try {
      await save.mutateAsync([
        protocol === 'oidc'
          ? { protocol, identifier: identifier.trim(), issuer: issuer.trim(), client_id: clientId.trim(), ...(clientSecret ? { client_secret: clientSecret } : {}) }
          : { protocol, identifier: identifier.trim(), metadata_xml: metadata },
      ]);
      form.set('clientSecret', '');
      notify('success', t('organizations.sso.provider.saved'));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fields = fieldErrors(error);
      const names = { identifier: 'identifier', issuer: 'issuer', client_id: 'clientId', client_secret: 'clientSecret', metadata_xml: 'metadata' } as const;
      const found = Object.fromEntries(Object.entries(names).flatMap(([wire, field]) => (fields[wire] ? [[field, fields[wire]]] : [])));
      if (Object.keys(found).length > 0) form.setServerErrors(found);
      else setFailure(errorText(error));
    }
  };

  return (
    <Section title={t('organizations.sso.provider.title')} description={t('organizations.sso.provider.description')}>
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="sso-provider-form">
        <Stack gap="sm">
          <TextInput
            label={t('organizations.sso.provider.identifier')}
            description={t('organizations.sso.provider.identifierHint')}
            autoComplete="off"
            {...form.text('identifier')}
            maw={360}
          />
          <Radio.Group label={t('organizations.sso.provider.protocol')} value={form.values.protocol} onChange={(value) => form.set('protocol', value as Protocol)}>
            <Group gap="lg" mt={4}>
              <Radio value="oidc" label={t('organizations.sso.provider.oidc')} />
              <Radio value="saml" label={t('organizations.sso.provider.saml')} />
            </Group>
          </Radio.Group>
          {form.values.protocol === 'oidc' ? (
            <>
              <TextInput
                label={t('organizations.sso.provider.issuer')}
                placeholder="https://login.example.com"
                autoComplete="off"
                {...form.text('issuer')}
              />
              <TextInput
                label={t('organizations.sso.provider.clientId')}
                autoComplete="off"
                {...form.text('clientId')}
              />
              <PasswordInput
                label={t('organizations.sso.provider.clientSecret')}
                description={hasSecret ? t('organizations.sso.provider.secretStored') : t('organizations.sso.provider.secretHint')}
                autoComplete="new-password"
                {...form.text('clientSecret')}
              />
            </>
          ) : (
            <>
              {settings.saml && (
                <Text size="sm" data-testid="sso-saml-current">
                  {t('organizations.sso.provider.samlCurrent', { entityId: settings.saml.entity_id, count: settings.saml.certificates })}
                </Text>
              )}
              <Textarea
                label={t('organizations.sso.provider.metadata')}
                description={t('organizations.sso.provider.metadataHint')}
                autosize
                minRows={4}
                maxRows={12}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                value={form.values.metadata}
                onChange={(event) => form.set('metadata', event.currentTarget.value)}
                error={form.error('metadata')}
              />
            </>
          )}
          <FailureAlert failure={failure} testId="sso-provider-error" />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('organizations.sso.provider.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
