import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Button.css';
import { useRef, type ComponentProps } from 'react';
import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AVATAR_MAX_BYTES } from '@portal/contracts';
import { ApiError, errorText, notify } from '../../lib/api';
import { setSessionUser, useAuthState } from '../../lib/session';
import { useRemoveAvatar, useUploadAvatar } from './api';

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** The browser's check before sending (the server checks the bytes again): PNG, JPEG or WebP, at most 5 MB. */
export function avatarProblem(file: Pick<File, 'type' | 'size'>): 'account.avatar.invalidType' | 'account.avatar.tooLarge' | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'account.avatar.invalidType';
  if (file.size > AVATAR_MAX_BYTES) return 'account.avatar.tooLarge';
  return null;
}

/** The avatar: the picture the server keeps (resized), upload and remove. */
export function AvatarField() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const resetRef = useRef<() => void>(null);
  const name = user?.full_name ?? '';

  const choose = async (file: File | null) => {
    resetRef.current?.();
    if (!file || !user) return;
    const problem = avatarProblem(file);
    if (problem) {
      notify('error', `${t('account.avatar.failed')}: ${t(problem)}`);
      return;
    }
    try {
      const avatarUrl = await upload.mutateAsync(file);
      setSessionUser({ ...user, avatar_url: avatarUrl });
      notify('success', t('account.avatar.saved'));
    } catch (error) {
      // 400/413/415 are this page's to report; the rest got the API client's toast.
      if (error instanceof ApiError && error.status !== null && [400, 413, 415].includes(error.status)) {
        const reason = error.status === 400 ? errorText(error) : t('account.avatar.invalidType');
        notify('error', `${t('account.avatar.failed')}: ${error.status === 413 ? t('account.avatar.tooLarge') : reason}`);
      }
    }
  };

  const clear = async () => {
    if (!user) return;
    try {
      await remove.mutateAsync();
      setSessionUser({ ...user, avatar_url: null });
      notify('success', t('account.avatar.removed'));
    } catch {
      // reported by the API client's policy
    }
  };

  return (
    <Group gap="lg" align="center" wrap="nowrap">
      <Avatar src={user?.avatar_url ?? null} alt={t('account.avatar.alt', { name })} name={name} color="initials" size={88} radius="xl" data-testid="avatar-image" />
      <Stack gap={6}>
        <Group gap="sm">
          <FileButton onChange={(file) => void choose(file)} accept={AVATAR_TYPES.join(',')} resetRef={resetRef} inputProps={{ 'data-testid': 'avatar-file' } as ComponentProps<'input'>}>
            {(props) => (
              <Button {...props} variant="light" loading={upload.isPending}>
                {t('account.avatar.upload')}
              </Button>
            )}
          </FileButton>
          {user?.avatar_url && (
            <Button variant="subtle" color="red" onClick={() => void clear()} loading={remove.isPending}>
              {t('account.avatar.remove')}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('account.avatar.hint')}
        </Text>
      </Stack>
    </Group>
  );
}
