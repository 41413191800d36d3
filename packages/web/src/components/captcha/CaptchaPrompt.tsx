import { lazy, Suspense, type Ref } from 'react';
import { Stack, Text } from '@mantine/core';
import type { CaptchaHandle } from './types';

// Loaded only once a server asks for a captcha (repeated failures), never on a first visit.
const CaptchaField = lazy(async () => ({ default: (await import('./CaptchaField')).CaptchaField }));

/**
 * The captcha a form shows after the server asked for one: why, then the check, which
 * starts solving at once. `ref` gives the answer to send with the next attempt; `onAnswer`
 * is told when the check has one (it says Verified), so a message asking for it can go.
 */
export function CaptchaPrompt({ hint, action, onAnswer, ref }: { hint: string; action: string; onAnswer?(): void; ref: Ref<CaptchaHandle> }) {
  return (
    <Stack gap={4}>
      <Text size="sm">{hint}</Text>
      <Suspense fallback={null}>
        <CaptchaField ref={ref} action={action} auto="onload" onChange={(answer) => answer && onAnswer?.()} />
      </Suspense>
    </Stack>
  );
}
