import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SOCIAL_PROVIDERS, type SocialProviderId } from '@portal/contracts';
import { ApiError, errorText } from '../lib/api';
import { useRuntimeConfig } from '../lib/runtime-context';
import classes from './SocialButtons.module.css';

/**
 * "Continue with Google" and the others this brand offers (the server says which have
 * credentials). The provider's colour marks its button; the text stays dark on white for
 * contrast. The call that starts the sign-in loads on the first click.
 */
export function SocialButtons({ search }: { search: string }) {
  const { t } = useTranslation();
  const { socialProviders } = useRuntimeConfig();
  const [pending, setPending] = useState<SocialProviderId | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (socialProviders.length === 0) return null;

  const start = async (provider: SocialProviderId) => {
    setPending(provider);
    setFailed(null);
    try {
      const { startSocialSignIn } = await import('../lib/social');
      await startSocialSignIn(provider, 'sign_in', search);
    } catch (error) {
      setFailed(error instanceof ApiError ? errorText(error) : t('errors.something_went_wrong'));
      setPending(null);
    }
  };

  return (
    <Stack gap="xs" data-testid="social-buttons">
      <Text size="sm" c="dimmed" ta="center">
        {t('auth.login.socialOr')}
      </Text>
      {socialProviders.map((provider) => (
        <button
          key={provider}
          type="button"
          className={classes.button}
          style={{ borderLeftColor: SOCIAL_PROVIDERS[provider].color }}
          disabled={pending !== null}
          data-loading={pending === provider || undefined}
          aria-busy={pending === provider || undefined}
          onClick={() => void start(provider)}
          data-testid={`social-${provider}`}
        >
          <span aria-hidden className={classes.mark} style={{ background: SOCIAL_PROVIDERS[provider].color }} />
          {t('auth.login.socialContinue', { provider: SOCIAL_PROVIDERS[provider].name })}
        </button>
      ))}
      {failed && (
        <Text size="sm" c="red.8" role="alert" data-testid="social-error">
          {failed}
        </Text>
      )}
    </Stack>
  );
}
