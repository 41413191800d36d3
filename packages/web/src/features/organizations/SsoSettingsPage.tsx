import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Switch.css';
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Code, Group, Loader, NativeSelect, PasswordInput, Radio, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { domainProofAddresses, formatDate, type CompanySsoDomain, type CompanySsoSettings } from '@portal/contracts';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { ApiError, errorText, fieldErrors, fieldErrorText, notify } from '../../lib/api';
import { useForm } from '../../lib/use-form';
import { required } from '../../lib/validators';
import { addSsoDomain, confirmSsoDomainProof, fetchSsoSettings, mailSsoDomainProof, removeSsoDomain, setRequireSso, setSsoProvider, ssoSettingsQueryKey, useSsoChange, verifySsoDomain } from './api';
import { useLanguage } from '../../lib/use-language';

/**
 * /organization/sso: the organization's company SSO for its owners and admins: the SSO
 * identifier and identity provider (the OpenID Connect secret is write-only), require-SSO, and
 * the email domains with their TXT records. The server checks the role and asks for a recent
 * proof of identity before changing the provider, require-SSO or a domain's proof.
 */
export function SsoSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: ssoSettingsQueryKey, queryFn: fetchSsoSettings, retry: false });

  if (settings.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Group>
    );
  }
  if (!settings.data) {
    const refused = settings.error instanceof ApiError && (settings.error.code === 'organizations.forbidden' || settings.error.code === 'organizations.not_member');
    return (
      <Stack gap="lg">
        <PageHeader title={t('organization.sso.title')} />
        <Alert color={refused ? 'gray' : 'red'} variant="light" role={refused ? undefined : 'alert'} data-testid="sso-settings-refused">
          {refused ? t('organization.sso.adminsOnly') : t('organization.sso.loadFailed')}
        </Alert>
      </Stack>
    );
  }
  const data = settings.data;
  return (
    <Stack gap="lg">
      <PageHeader title={t('organization.sso.title')} description={t('organization.sso.description', { name: data.organization.name })} />
      <ProviderSection settings={data} />
      {data.registration && <RegistrationSection settings={data} />}
      <RequireSection settings={data} />
      <DomainsSection domains={data.domains} />
    </Stack>
  );
}

type Protocol = 'oidc' | 'saml';

/** The identifier and the identity provider: OpenID Connect (issuer, client id, write-only secret) or SAML 2.0 metadata. */
function ProviderSection({ settings }: { settings: CompanySsoSettings }) {
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
      notify('success', t('organization.sso.provider.saved'));
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
    <Section title={t('organization.sso.provider.title')} description={t('organization.sso.provider.description')}>
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="sso-provider-form">
        <Stack gap="sm">
          <TextInput
            label={t('organization.sso.provider.identifier')}
            description={t('organization.sso.provider.identifierHint')}
            autoComplete="off"
            value={form.values.identifier}
            onChange={(event) => form.set('identifier', event.currentTarget.value)}
            error={form.error('identifier')}
            maw={360}
          />
          <Radio.Group label={t('organization.sso.provider.protocol')} value={form.values.protocol} onChange={(value) => form.set('protocol', value as Protocol)}>
            <Group gap="lg" mt={4}>
              <Radio value="oidc" label={t('organization.sso.provider.oidc')} />
              <Radio value="saml" label={t('organization.sso.provider.saml')} />
            </Group>
          </Radio.Group>
          {form.values.protocol === 'oidc' ? (
            <>
              <TextInput
                label={t('organization.sso.provider.issuer')}
                placeholder="https://login.example.com"
                autoComplete="off"
                value={form.values.issuer}
                onChange={(event) => form.set('issuer', event.currentTarget.value)}
                error={form.error('issuer')}
              />
              <TextInput
                label={t('organization.sso.provider.clientId')}
                autoComplete="off"
                value={form.values.clientId}
                onChange={(event) => form.set('clientId', event.currentTarget.value)}
                error={form.error('clientId')}
              />
              <PasswordInput
                label={t('organization.sso.provider.clientSecret')}
                description={hasSecret ? t('organization.sso.provider.secretStored') : t('organization.sso.provider.secretHint')}
                autoComplete="new-password"
                value={form.values.clientSecret}
                onChange={(event) => form.set('clientSecret', event.currentTarget.value)}
                error={form.error('clientSecret')}
              />
            </>
          ) : (
            <>
              {settings.saml && (
                <Text size="sm" data-testid="sso-saml-current">
                  {t('organization.sso.provider.samlCurrent', { entityId: settings.saml.entity_id, count: settings.saml.certificates })}
                </Text>
              )}
              <Textarea
                label={t('organization.sso.provider.metadata')}
                description={t('organization.sso.provider.metadataHint')}
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
          {failure && (
            <Alert color="red" variant="light" role="alert" data-testid="sso-provider-error">
              {failure}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('organization.sso.provider.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

/** The addresses to register at the identity provider. */
function RegistrationSection({ settings }: { settings: CompanySsoSettings }) {
  const { t } = useTranslation();
  const registration = settings.registration!;
  const rows =
    settings.protocol === 'saml'
      ? [
          [t('organization.sso.registration.acs'), registration.saml_acs_url],
          [t('organization.sso.registration.entityId'), registration.saml_entity_id],
        ]
      : registration.oidc_redirect_uris.map((uri) => [t('organization.sso.registration.redirectUri'), uri]);
  return (
    <Section title={t('organization.sso.registration.title')} description={t('organization.sso.registration.description')}>
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

/** Require SSO: members then sign in only through the identity provider. */
function RequireSection({ settings }: { settings: CompanySsoSettings }) {
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
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      )}
    </Section>
  );
}

/** The email domains: add one (its TXT record to publish), verify now, remove. */
function DomainsSection({ domains }: { domains: CompanySsoDomain[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  // The add form starts afresh (no leftover message) after each domain added.
  const [formKey, setFormKey] = useState(0);
  const verify = useSsoChange(verifySsoDomain);
  const remove = useSsoChange(removeSsoDomain);
  const [rowFailure, setRowFailure] = useState<{ domain: string; text: string } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const verifyNow = async (domain: string) => {
    setRowFailure(null);
    try {
      await verify.mutateAsync([domain]);
      notify('success', t('organization.sso.domains.verifiedToast', { domain }));
    } catch (error) {
      if (error instanceof ApiError) setRowFailure({ domain, text: errorText(error) });
    }
  };

  return (
    <Section title={t('organization.sso.domains.title')} description={t('organization.sso.domains.description')}>
      <AddDomainForm key={formKey} onAdded={() => setFormKey((key) => key + 1)} />
      {domains.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('organization.sso.domains.empty')}
        </Text>
      ) : (
        <DataTable
          rows={domains}
          rowKey={(row) => row.domain}
          minWidth={640}
          narrow="cards"
          testId="sso-domains"
          rowTestId="sso-domain"
          columns={[
            {
              header: t('organization.sso.domains.domain'),
              cell: (row) => (
                <Text size="sm" fw={500}>
                  {row.domain}
                </Text>
              ),
            },
            {
              header: t('organization.sso.domains.status'),
              cell: (row) =>
                row.verified ? (
                  <Stack gap={0}>
                    <Badge color="green" variant="light" size="sm">
                      {t('organization.sso.domains.verified')}
                    </Badge>
                    {row.verified_at && (
                      <Text size="xs" c="dimmed">
                        {formatDate(row.verified_at, language)}
                      </Text>
                    )}
                  </Stack>
                ) : (
                  <Badge color="yellow" variant="light" size="sm">
                    {t('organization.sso.domains.pending')}
                  </Badge>
                ),
            },
            {
              header: t('organization.sso.domains.record'),
              cell: (row) =>
                row.verified ? (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                ) : (
                  <Stack gap={2}>
                    <Text size="xs">{t('organization.sso.domains.publish', { domain: row.domain })}</Text>
                    <Code style={{ wordBreak: 'break-all' }} data-testid="sso-domain-record">
                      {row.txt_record}
                    </Code>
                    {rowFailure?.domain === row.domain && (
                      <Text size="xs" c="red" role="alert" data-testid="sso-domain-error">
                        {rowFailure.text}
                      </Text>
                    )}
                    <MailProof domain={row.domain} />
                  </Stack>
                ),
            },
          ]}
          actions={{
            label: t('organization.members.actions'),
            cell: (row) => (
              <>
                {!row.verified && (
                  <Button
                    variant="light"
                    size="xs"
                    loading={verify.isPending && verify.variables?.[0] === row.domain}
                    aria-label={t('organization.sso.domains.verifyNamed', { domain: row.domain })}
                    onClick={() => void verifyNow(row.domain)}
                  >
                    {t('organization.sso.domains.verify')}
                  </Button>
                )}
                <Button variant="subtle" color="red" size="xs" aria-label={t('organization.sso.domains.removeNamed', { domain: row.domain })} onClick={() => setRemoving(row.domain)}>
                  {t('organization.sso.domains.remove')}
                </Button>
              </>
            ),
          }}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        danger
        title={t('organization.sso.domains.removeTitle', { domain: removing ?? '' })}
        confirmLabel={t('organization.sso.domains.remove')}
        onConfirm={async () => {
          if (!removing) return;
          await remove.mutateAsync([removing]);
          notify('success', t('organization.sso.domains.removed', { domain: removing }));
        }}
      >
        {t('organization.sso.domains.removeBody')}
      </ConfirmDialog>
    </Section>
  );
}

/** Claims a domain: the answer's TXT record shows in the table. */
function AddDomainForm({ onAdded }: { onAdded(): void }) {
  const { t } = useTranslation();
  const add = useSsoChange(addSsoDomain);
  const form = useForm({ domain: '' }, () => ({ domain: required }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending || !form.check()) return;
    try {
      const added = await add.mutateAsync([form.values.domain.trim()]);
      notify('success', t('organization.sso.domains.added', { domain: added.domain }));
      onAdded();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fields = fieldErrors(error);
      if (fields.domain) form.setServerErrors({ domain: fields.domain });
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="sso-domain-form">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={t('organization.sso.domains.domain')}
          placeholder="example.com"
          autoComplete="off"
          style={{ flex: '1 1 240px' }}
          value={form.values.domain}
          onChange={(event) => form.set('domain', event.currentTarget.value)}
          error={form.error('domain')}
        />
        <Button type="submit" mt={24} loading={add.isPending}>
          {t('organization.sso.domains.add')}
        </Button>
      </Group>
    </form>
  );
}

/** The alternative to the TXT record: a code mailed to a role mailbox of the domain (never the admin's own), entered here. */
function MailProof({ domain }: { domain: string }) {
  const { t } = useTranslation();
  const addresses = domainProofAddresses(domain);
  const [address, setAddress] = useState(addresses[0]!);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const send = useSsoChange(mailSsoDomainProof);
  const confirm = useSsoChange(confirmSsoDomainProof);
  const failed = (error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    const field = Object.values(fieldErrors(error))[0];
    setFailure(field ? fieldErrorText(field) : errorText(error));
  };

  return (
    <Stack gap={4} mt={4} data-testid="sso-mail-proof">
      <Text size="xs">{t('organization.sso.domains.mailProof')}</Text>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <NativeSelect size="xs" aria-label={t('organization.sso.domains.mailAddress', { domain })} value={address} data={addresses} onChange={(event) => setAddress(event.currentTarget.value)} />
        <Button
          size="xs"
          variant="default"
          loading={send.isPending}
          onClick={() => {
            setFailure(null);
            send.mutateAsync([domain, address]).then((sent) => {
              setSentTo(sent.address);
              notify('success', t('organization.sso.domains.mailSent', { address: sent.address }));
            }, failed);
          }}
        >
          {t('organization.sso.domains.mailSend')}
        </Button>
      </Group>
      {sentTo && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setFailure(null);
            confirm.mutateAsync([domain, code.trim()]).then(() => notify('success', t('organization.sso.domains.verifiedToast', { domain })), failed);
          }}
        >
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              size="xs"
              w={140}
              label={t('organization.sso.domains.mailCode', { address: sentTo })}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Button size="xs" type="submit" loading={confirm.isPending}>
              {t('organization.sso.domains.mailConfirm')}
            </Button>
          </Group>
        </form>
      )}
      {failure && (
        <Text size="xs" c="red" role="alert" data-testid="sso-mail-proof-error">
          {failure}
        </Text>
      )}
    </Stack>
  );
}
