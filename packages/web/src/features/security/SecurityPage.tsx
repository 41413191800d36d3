import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/SimpleGrid.css';
import type { ReactNode } from 'react';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useSecurityOverview } from './api';
import { LinkedAccountsSection } from './LinkedAccountsSection';
import { Loaded, useLanguage, useSessionLabel } from './shared';

const RECENT = 3;

function StateCard({ title, state, on, to, testId }: { title: string; state: ReactNode; on?: boolean; to: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" data-testid={testId}>
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={6}>
          <Title order={2} fz="h5">
            {title}
          </Title>
          <Group gap="xs" wrap="nowrap">
            {on !== undefined && (
              <span aria-hidden style={{ width: 8, height: 8, borderRadius: '50%', flex: 'none', background: `var(--mantine-color-${on ? 'green-6' : 'gray-5'})` }} />
            )}
            <Text size="sm">{state}</Text>
          </Group>
        </Stack>
        <Anchor component={Link} to={to} size="sm" aria-label={`${t('security.overview.manage')}: ${title}`}>
          {t('security.overview.manage')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** /security: the state of the password, two-step verification and passkeys, and the newest sign-ins. */
export function SecurityPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const label = useSessionLabel();
  const overview = useSecurityOverview();

  return (
    <Stack gap="lg">
      <PageHeader title={t('security.overview.title')} description={t('security.overview.description')} />
      <Loaded query={overview} failure={t('security.overview.loadFailed')}>
        {(data) => (
          <>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <StateCard
                testId="overview-password"
                title={t('security.overview.password')}
                to={paths.securityPassword}
                state={
                  !data.has_password
                    ? t('security.overview.passwordNone')
                    : data.password_changed_at
                      ? t('security.overview.passwordChanged', { date: formatDate(data.password_changed_at, language) })
                      : t('security.overview.passwordNeverChanged')
                }
              />
              <StateCard
                testId="overview-two-step"
                title={t('security.overview.twoStep')}
                to={paths.securityTwoStep}
                on={data.two_factor.method !== null}
                state={
                  data.two_factor.method
                    ? t('security.overview.twoStepOn', { method: t(`security.methods.${data.two_factor.method}`) })
                    : t('security.overview.twoStepOff')
                }
              />
              <StateCard
                testId="overview-passkeys"
                title={t('security.overview.passkeys')}
                to={paths.securityWebauthn}
                on={data.passkeys > 0}
                state={data.passkeys > 0 ? t('security.overview.passkeysCount', { count: data.passkeys }) : t('security.overview.passkeysNone')}
              />
            </SimpleGrid>
            <Section title={t('security.overview.recent')}>
              {data.recent_sessions.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('security.overview.recentNone')}
                </Text>
              ) : (
                <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="overview-sessions">
                  {data.recent_sessions.slice(0, RECENT).map((session) => {
                    const { browser, device } = label(session);
                    return (
                      <Group key={session.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                        <Stack gap={0} style={{ minWidth: 0 }}>
                          <Group gap="xs">
                            <Text size="sm" fw={500}>
                              {browser} · {device}
                            </Text>
                            {session.current && (
                              <Badge size="xs" variant="light" color="green">
                                {t('security.devices.thisDevice')}
                              </Badge>
                            )}
                          </Group>
                          <Text size="xs" c="dimmed" truncate>
                            {[session.location, session.ip].filter(Boolean).join(' · ') || t('security.devices.unknown')}
                          </Text>
                        </Stack>
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(session.last_active_at, language)}
                        </Text>
                      </Group>
                    );
                  })}
                </Stack>
              )}
              <Anchor component={Link} to={paths.securityDeviceActivity} size="sm">
                {t('security.overview.seeAll')}
              </Anchor>
            </Section>
            <LinkedAccountsSection />
          </>
        )}
      </Loaded>
    </Stack>
  );
}
