import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Code.css';
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';

interface SecretOnceProps {
  title: string;
  /** Why it shows once: copy it now. */
  text: string;
  secret: string;
  testId: string;
  valueTestId?: string;
  /** A button that hides it, where the page has one. */
  dismiss?: { label: string; testId: string; onClick(): void };
}

/** A secret just made (an app's, a webhook's): shown in the page once, never read back from the server. */
export function SecretOnce({ title, text, secret, testId, valueTestId, dismiss }: SecretOnceProps) {
  return (
    <Alert color="yellow" title={title} data-testid={testId}>
      <Stack gap="xs">
        <Text size="sm">{text}</Text>
        <Code block data-testid={valueTestId}>
          {secret}
        </Code>
        {dismiss && (
          <Group>
            <Button size="xs" variant="default" onClick={dismiss.onClick} data-testid={dismiss.testId}>
              {dismiss.label}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
