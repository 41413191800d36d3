import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useEffect, useMemo } from 'react';
import { Button, Group, Select, SimpleGrid, Stack, TextInput, type TextInputProps } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText, notify } from '../../lib/api';
import { useAuthState } from '../../lib/session';
import { placeServerErrors, useFieldMessage } from '../../components/dialogs/form-errors';
import { useCountries, useSaveProfile } from './api';
import { PROFILE_LIMITS, profileFields, profileRequest, profileSchema, profileValues, type ProfileValues } from './profile-schema';
import { useLanguage } from '../../lib/use-language';

/** The general profile: name, username, contact and organisation, country. */
export function ProfileForm() {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const { user } = useAuthState();
  const countries = useCountries();
  const save = useSaveProfile();
  const language = useLanguage();
  const form = useForm<ProfileValues>({ resolver: zodResolver(profileSchema), defaultValues: profileValues(user), mode: 'onTouched' });

  // The user as saved (or changed elsewhere: a new email) becomes the form's new starting point.
  const { reset } = form;
  useEffect(() => {
    if (user) reset(profileValues(user), { keepDirtyValues: true, keepErrors: true });
  }, [user, reset]);

  const countryOptions = useMemo(
    () =>
      (countries.data ?? [])
        .map((country) => ({ value: country.code, label: country.name[language] || country.name.en }))
        .sort((a, b) => a.label.localeCompare(b.label, language)),
    [countries.data, language],
  );

  const submit = form.handleSubmit(async (values) => {
    if (!user) return;
    try {
      await save.mutateAsync(profileRequest(user, values, language));
      notify('success', t('account.profile.saved'));
    } catch (error) {
      const unplaced = placeServerErrors<ProfileValues>(error, form.setError, profileFields);
      // A 400 is this form's to report; other failures got the API client's toast already.
      if (error instanceof ApiError && error.status === 400) {
        notify('error', unplaced ? `${t('account.profile.saveFailed')}: ${errorText(unplaced)}` : t('account.profile.saveFailed'));
      }
    }
  });

  const field = (name: Exclude<keyof ProfileValues, 'country'>, label: string, extra: TextInputProps = {}) => (
    <TextInput label={label} {...form.register(name)} error={message(form.formState.errors[name]?.message)} {...extra} />
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="profile-form">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {field('full_name', t('account.profile.fullName'), { required: true, autoComplete: 'name', maxLength: PROFILE_LIMITS.full_name })}
          {field('username', t('account.profile.username'), { autoComplete: 'username', maxLength: PROFILE_LIMITS.username })}
          {/* A long address is cut by the box on a phone: the title shows it whole. */}
          <TextInput label={t('account.profile.email')} value={user?.email ?? ''} title={user?.email ?? undefined} readOnly disabled />
          {field('phone', t('account.profile.phone'), { autoComplete: 'tel', inputMode: 'numeric', maxLength: PROFILE_LIMITS.phone })}
          {field('company', t('account.profile.company'), { autoComplete: 'organization', maxLength: PROFILE_LIMITS.text })}
          {field('organization', t('account.profile.organization'), { maxLength: PROFILE_LIMITS.text })}
          {field('address', t('account.profile.address'), { autoComplete: 'street-address', maxLength: PROFILE_LIMITS.text })}
          <Controller
            control={form.control}
            name="country"
            render={({ field: country, fieldState }) => (
              <Select
                label={t('account.profile.country')}
                placeholder={t('account.profile.countryPlaceholder')}
                nothingFoundMessage={t('account.profile.noCountry')}
                data={countryOptions}
                value={country.value || null}
                onChange={(value) => country.onChange(value ?? '')}
                onBlur={country.onBlur}
                searchable
                clearable
                error={message(fieldState.error?.message)}
                data-testid="country-select"
              />
            )}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('account.profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
