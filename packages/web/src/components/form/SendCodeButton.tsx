import { useCallback, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';

export interface SendCode {
  /** The mail is on its way (the button waits). */
  sending: boolean;
  /** A code was mailed: said beside the button, or what turns "send" into "resend". */
  sent: boolean;
  send(): Promise<void>;
  /** Not sent yet: for a dialog closed and opened again. */
  reset(): void;
}

/**
 * Mailing a verification code on request. A failure (429: how long to wait) is the API client's
 * policy's to report, so it only leaves `sent` as it was.
 */
export function useSendCode(mail: () => Promise<unknown>): SendCode {
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      await mail();
      setSent(true);
    } catch {
      // reported by the API client's policy
    } finally {
      setSending(false);
    }
  };

  const reset = useCallback(() => setSent(false), []);
  return { sending, sent, send, reset };
}

/** The small "send a code" button under a code field, and once sent, the line saying so. */
export function SendCodeButton({ code, label, sentNote }: { code: SendCode; label: string; sentNote: string }) {
  return (
    <Group gap="xs">
      <Button variant="subtle" size="compact-sm" loading={code.sending} onClick={() => void code.send()}>
        {label}
      </Button>
      {code.sent && (
        <Text size="xs" c="dimmed" role="status">
          {sentNote}
        </Text>
      )}
    </Group>
  );
}
