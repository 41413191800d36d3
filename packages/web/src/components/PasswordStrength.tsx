import '@mantine/core/styles/Progress.css';
import { useEffect, useState } from 'react';
import { Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { loadStrengthCheck, type StrengthCheck, type StrengthScore } from '../lib/password-strength';

const colors: Record<StrengthScore, string> = { 0: 'red', 1: 'red', 2: 'yellow', 3: 'teal', 4: 'green' };

interface PasswordStrengthProps {
  password: string;
  /** Words the password should not lean on: the user's name and email. */
  userInputs?: string[];
}

/** A meter under a new-password field; its estimator loads when the first character is typed. */
export function PasswordStrength({ password, userInputs = [] }: PasswordStrengthProps) {
  const { t } = useTranslation();
  const [check, setCheck] = useState<StrengthCheck | null>(null);

  useEffect(() => {
    if (!password || check) return;
    let current = true;
    loadStrengthCheck().then(
      (loaded) => {
        if (current) setCheck(() => loaded);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [password, check]);

  if (!password || !check) return null;
  const score = check(password, userInputs.filter(Boolean));
  const level = t(`form.passwordStrength.levels.${score}`);
  return (
    <Stack gap={4} data-testid="password-strength" data-score={score}>
      <Progress value={(score + 1) * 20} color={colors[score]} size="sm" aria-hidden="true" />
      <Text size="xs" c="dimmed" aria-live="polite">
        {t('form.passwordStrength.label', { level })}
      </Text>
    </Stack>
  );
}
