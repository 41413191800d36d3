import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import type { FormEvent } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, fieldErrors, notify } from '../../../lib/api';
import { useForm } from '../../../lib/use-form';
import { required } from '../../../lib/validators';
import { addSsoDomain, useSsoChange } from '../api';

/** Claims a domain: the answer's TXT record shows in the table. */
export function AddDomainForm({ onAdded }: { onAdded(): void }) {
  const { t } = useTranslation();
  const add = useSsoChange(addSsoDomain);
  const form = useForm({ domain: '' }, () => ({ domain: required }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending || !form.check()) return;
    try {
      const added = await add.mutateAsync([form.values.domain.trim()]);
      notify('success', t('organizations.sso.domains.added', { domain: added.domain }));
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
          label={t('organizations.sso.domains.domain')}
          placeholder="example.com"
          autoComplete="off"
          style={{ flex: '1 1 240px' }}
          {...form.text('domain')}
        />
        <Button type="submit" mt={24} loading={add.isPending}>
          {t('organizations.sso.domains.add')}
        </Button>
      </Group>
    </form>
  );
}
