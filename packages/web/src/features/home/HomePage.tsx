import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/ThemeIcon.css';
import type { ReactNode } from 'react';
import { Avatar, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { ProductGrid } from '../../components/ProductGrid';
import { Section } from '../../components/Section';
import { useAuthState, type SessionUser } from '../../lib/session';
import classes from './HomePage.module.css';

/** What a signed-in user should do next, most important first. */
export type AttentionItem = 'noRecoveryEmail' | 'recoveryUnverified' | 'noTwoStep';

export function attentionItems(user: SessionUser | null): AttentionItem[] {
  if (!user) return [];
  const items: AttentionItem[] = [];
  if (!user.recovery_email) items.push('noRecoveryEmail');
  else if (!user.recovery_email_verified) items.push('recoveryUnverified');
  if (!user.two_factor_method) items.push('noTwoStep');
  return items;
}

const attentionTarget: Record<AttentionItem, string> = {
  noRecoveryEmail: paths.email,
  recoveryUnverified: paths.email,
  noTwoStep: paths.securityTwoStep,
};

/** / (signed in): who is signed in, what needs attention, and the products of the family. */
export function HomePage() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const name = user?.full_name ?? '';
  const items = attentionItems(user);
  const identity = [user?.email, user?.username ? `@${user.username}` : ''].filter(Boolean).join(' · ');

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md" data-testid="home-user">
        <Group gap="lg" wrap="nowrap" align="center">
          <Avatar src={user?.avatar_url ?? null} alt={t('home.profile.avatarAlt', { name })} name={name} color="initials" size={72} radius="xl" />
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Title order={1} fz="h2" className={classes.identity}>
              {t('home.title', { name })}
            </Title>
            <Text c="dimmed" className={classes.identity} title={identity} data-testid="home-identity">
              {identity}
            </Text>
            <Text size="sm" c="dimmed">
              {t('home.description')}
            </Text>
          </Stack>
          <Button component={Link} to={paths.account} variant="default" visibleFrom="sm">
            {t('home.profile.editProfile')}
          </Button>
        </Group>
      </Paper>

      <Section title={t('home.attention.title')}>
        {items.length === 0 ? (
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon color="green" variant="light" radius="xl" size="md" aria-hidden>
              <Check />
            </ThemeIcon>
            <Text size="sm">{t('home.attention.allGood')}</Text>
          </Group>
        ) : (
          <Stack gap="sm" data-testid="home-attention">
            {items.map((item) => (
              <AttentionRow
                key={item}
                title={t(`home.attention.${item}`)}
                body={t(`home.attention.${item}Body`, { email: user?.recovery_email ?? '' })}
                action={t(`home.attention.${item}Action`)}
                to={attentionTarget[item]}
              />
            ))}
          </Stack>
        )}
      </Section>

      <Section title={t('home.products.title')} description={t('home.products.description')}>
        <ProductGrid
          openLabel={(service) => t('home.products.openNamed', { service })}
          buttonText={t('home.products.open')}
          describe={(key) => t(`home.products.about.${key}`)}
        />
      </Section>
    </Stack>
  );
}

function AttentionRow({ title, body, action, to }: { title: string; body: string; action: string; to: string }) {
  return (
    <div className={classes.attention} data-testid="attention-row">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon color="yellow" variant="light" radius="xl" size="md" aria-hidden>
          <Exclamation />
        </ThemeIcon>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600}>
            {title}
          </Text>
          <Text size="sm" c="dimmed" className={classes.identity}>
            {body}
          </Text>
        </Stack>
      </Group>
      <Button component={Link} to={to} variant="default" size="xs" className={classes.action}>
        {action}
      </Button>
    </div>
  );
}

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}
const Check = () => (
  <Icon>
    <path d="M5 12l5 5L20 7" />
  </Icon>
);
const Exclamation = () => (
  <Icon>
    <path d="M12 7v6M12 17h.01" />
  </Icon>
);
