import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, SOCIAL_PROVIDERS, type SocialProviderId } from '@portal/contracts';
import { Section } from '../../components/Section';
import { ApiError, errorText, notify } from '../../lib/api';
import { startSocialSignIn } from '../../lib/social';
import { useLinkedIdentities, useUnlinkIdentity } from './api';
import { useLanguage } from './shared';

const Mark = ({ provider }: { provider: SocialProviderId }) => (
  <span aria-hidden style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 3, flex: 'none', background: SOCIAL_PROVIDERS[provider].color }} />
);

/**
 * Sign-in methods on /security: the social accounts linked to this one, each with Unlink
 * (refused for the last way in), and Link for the others this brand offers. Linking and
 * unlinking ask for a recent proof of identity (the API client's dialog).
 */
export function LinkedAccountsSection() {
  const { t } = useTranslation();
  const language = useLanguage();
  const linked = useLinkedIdentities();
  const unlink = useUnlinkIdentity();
  const [failure, setFailure] = useState<string | null>(null);
  const data = linked.data;
  if (!data || (data.identities.length === 0 && data.available.length === 0)) return null;

  const fail = (error: unknown) => setFailure(error instanceof ApiError ? errorText(error) : t('errors.something_went_wrong'));
  const link = (provider: SocialProviderId) => {
    setFailure(null);
    startSocialSignIn(provider, 'link', '').catch(fail);
  };
  const remove = (provider: SocialProviderId) => {
    setFailure(null);
    unlink.mutate(provider, {
      onSuccess: () => notify('success', t('security.linked.unlinked', { provider: SOCIAL_PROVIDERS[provider].name })),
      onError: fail,
    });
  };

  return (
    <Section title={t('security.linked.title')} description={t('security.linked.description')}>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="linked-accounts">
        {data.identities.map((identity) => (
          <Group key={identity.provider} component="li" justify="space-between" wrap="nowrap" gap="sm" data-testid={`linked-${identity.provider}`}>
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <Mark provider={identity.provider} />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {SOCIAL_PROVIDERS[identity.provider].name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {[identity.email, t('security.linked.since', { date: formatDate(identity.linked_at, language) })].filter(Boolean).join(' · ')}
                </Text>
              </Stack>
            </Group>
            <Button
              size="xs"
              variant="default"
              loading={unlink.isPending && unlink.variables === identity.provider}
              onClick={() => remove(identity.provider)}
              aria-label={`${t('security.linked.unlink')}: ${SOCIAL_PROVIDERS[identity.provider].name}`}
            >
              {t('security.linked.unlink')}
            </Button>
          </Group>
        ))}
        {data.available.map((provider) => (
          <Group key={provider} component="li" justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="xs" wrap="nowrap">
              <Mark provider={provider} />
              <Text size="sm">{SOCIAL_PROVIDERS[provider].name}</Text>
            </Group>
            <Button size="xs" variant="light" onClick={() => link(provider)} data-testid={`link-${provider}`} aria-label={`${t('security.linked.link')}: ${SOCIAL_PROVIDERS[provider].name}`}>
              {t('security.linked.link')}
            </Button>
          </Group>
        ))}
      </Stack>
      {failure && (
        <Text size="sm" c="red.8" role="alert" data-testid="linked-error">
          {failure}
        </Text>
      )}
    </Section>
  );
}
