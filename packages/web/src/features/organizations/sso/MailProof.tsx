import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { domainProofAddresses } from '@portal/contracts';
import { ApiError, errorText, fieldErrors, fieldErrorText, notify } from '../../../lib/api';
import { confirmSsoDomainProof, mailSsoDomainProof, useSsoChange } from '../api';

/** The alternative to the TXT record: a code mailed to a role mailbox of the domain (never the admin's own), entered here. */
export function MailProof({ domain }: { domain: string }) {
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
      <Text size="xs">{t('organizations.sso.domains.mailProof')}</Text>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <NativeSelect size="xs" aria-label={t('organizations.sso.domains.mailAddress', { domain })} value={address} data={addresses} onChange={(event) => setAddress(event.currentTarget.value)} />
        <Button
          size="xs"
          variant="default"
          loading={send.isPending}
          onClick={() => {
            setFailure(null);
            send.mutateAsync([domain, address]).then((sent) => {
              setSentTo(sent.address);
              notify('success', t('organizations.sso.domains.mailSent', { address: sent.address }));
            }, failed);
          }}
        >
          {t('organizations.sso.domains.mailSend')}
        </Button>
      </Group>
      {sentTo && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setFailure(null);
            confirm.mutateAsync([domain, code.trim()]).then(() => notify('success', t('organizations.sso.domains.verifiedToast', { domain })), failed);
          }}
        >
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              size="xs"
              w={140}
              label={t('organizations.sso.domains.mailCode', { address: sentTo })}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Button size="xs" type="submit" loading={confirm.isPending}>
              {t('organizations.sso.domains.mailConfirm')}
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
