import '../../components/dialogs/styles';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/NumberInput.css';
import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { Dialog } from '../../components/dialogs/Dialog';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiKeyScopes, type ApiKeyScope } from '@portal/contracts';
import type { ApiError } from '../../lib/api';
import { placeServerErrors, useFieldMessage } from '../../components/dialogs/form-errors';
import { DialogActions } from '../../components/dialogs/DialogActions';
import { KeyToCopy } from '../../components/KeyToCopy';
import { ScopeCheckbox } from '../../components/ScopeCheckbox';

/** The i18n key of a scope's label (i18next reads ':' as a namespace separator, so not the scope itself). */
export const scopeLabelKey = (scope: ApiKeyScope) =>
  `apiKeys.scopes.${scope.replace(/:(\w)/, (_whole, letter: string) => letter.toUpperCase())}` as `apiKeys.scopes.${'meRead' | 'meWrite' | 'notificationsRead' | 'notificationsWrite'}`;

export interface CreateKeyRequest {
  name: string;
  scopes: ApiKeyScope[];
  expires_in_days?: number;
}

export interface CreateKeyDialogProps {
  opened: boolean;
  onClose(): void;
  /** POST /sso/me/api-keys: answers the new key, whose secret exists only in this answer. */
  onCreate(request: CreateKeyRequest): Promise<{ name: string; key: string }>;
}

const KEY_NAME_MAX = 60;
const EXPIRY_MAX_DAYS = 365;

/** contracts createApiKeyRequestSchema, with the messages as i18n keys. */
const schema = z.object({
  name: z.string().trim().min(1, 'validation.blank').max(KEY_NAME_MAX, `account.validation.tooLong|{"max":${KEY_NAME_MAX}}`),
  scopes: z.array(z.enum(apiKeyScopes)).min(1, 'apiKeys.dialog.scopesRequired'),
  expires_in_days: z.union([z.number().int('apiKeys.dialog.expiresRange').min(1, 'apiKeys.dialog.expiresRange').max(EXPIRY_MAX_DAYS, 'apiKeys.dialog.expiresRange'), z.literal('')]),
});
type Values = z.input<typeof schema>;
const defaults: Values = { name: '', scopes: ['me:read'], expires_in_days: '' };

/**
 * The create-key dialog: name, scopes and an optional expiry; then the key, shown this
 * once with a copy button and a warning. Closing forgets it: the list only ever shows the
 * prefix.
 */
export function CreateKeyDialog({ opened, onClose, onCreate }: CreateKeyDialogProps) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults });

  useEffect(() => {
    if (!opened) {
      setCreated(null);
      setFailure(null);
      form.reset(defaults);
    }
  }, [opened, form]);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await onCreate({
        name: values.name.trim(),
        scopes: values.scopes,
        ...(values.expires_in_days === '' ? {} : { expires_in_days: values.expires_in_days }),
      });
      setCreated({ name: answer.name, key: answer.key });
    } catch (error) {
      setFailure(placeServerErrors<Values>(error, form.setError, ['name', 'scopes', 'expires_in_days']));
    }
  });

  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={created ? t('apiKeys.dialog.createdTitle') : t('apiKeys.dialog.title')}
      size="lg"
      // The key must not vanish by a stray click or Escape before it is copied.
      closeOnClickOutside={!created}
      closeOnEscape={!created}
    >
      {created ? (
        <Stack gap="md" data-testid="created-key">
          <Alert color="yellow" variant="light" role="alert">
            {t('apiKeys.dialog.warning')}
          </Alert>
          <KeyToCopy label={t('apiKeys.dialog.keyLabel')} value={created.key} valueTestId="created-key-value" copyTestId="copy-key" />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('apiKeys.dialog.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <Stack gap="md">
            <TextInput
              label={t('apiKeys.dialog.name')}
              placeholder={t('apiKeys.dialog.namePlaceholder')}
              maxLength={KEY_NAME_MAX}
              data-autofocus
              {...form.register('name')}
              error={message(form.formState.errors.name?.message)}
            />
            <Controller
              control={form.control}
              name="scopes"
              render={({ field, fieldState }) => (
                <Checkbox.Group
                  label={t('apiKeys.dialog.scopes')}
                  description={t('apiKeys.dialog.scopesHint')}
                  value={field.value}
                  onChange={(value) => field.onChange(value as ApiKeyScope[])}
                  error={message(fieldState.error?.message)}
                >
                  <Stack gap="xs" mt="xs">
                    {apiKeyScopes.map((scope) => (
                      <ScopeCheckbox key={scope} scope={scope} name={t(scopeLabelKey(scope))} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
            />
            <Controller
              control={form.control}
              name="expires_in_days"
              render={({ field, fieldState }) => (
                <NumberInput
                  label={t('apiKeys.dialog.expires')}
                  description={t('apiKeys.dialog.expiresHint')}
                  placeholder={t('apiKeys.dialog.expiresPlaceholder')}
                  min={1}
                  max={EXPIRY_MAX_DAYS}
                  allowDecimal={false}
                  allowNegative={false}
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                  onBlur={field.onBlur}
                  error={message(fieldState.error?.message)}
                />
              )}
            />
            <DialogActions failure={failure} onCancel={onClose} submitLabel={t('apiKeys.dialog.submit')} submitting={form.formState.isSubmitting} />
          </Stack>
        </form>
      )}
    </Dialog>
  );
}
