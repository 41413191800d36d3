import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Switch.css';
import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { webhookEventTypes, type WebhookApp, type WebhookEventType } from '@portal/contracts';

export interface EndpointDraft {
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
}

/** An app's endpoint URL, its events and whether it is on; owners save it (with a reason), others only read it. */
export function EndpointForm({ app, canChange, onSave }: { app: WebhookApp; canChange: boolean; onSave(draft: EndpointDraft): void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<EndpointDraft>({
    url: app.endpoint?.url ?? '',
    events: app.endpoint?.events ?? [...webhookEventTypes],
    enabled: app.endpoint?.enabled ?? true,
  });
  const usable = /^https?:\/\/./.test(draft.url.trim()) && draft.events.length > 0;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (usable) onSave({ ...draft, url: draft.url.trim() });
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={t('admin.webhooks.url')}
          description={t('admin.webhooks.urlHint')}
          type="url"
          value={draft.url}
          readOnly={!canChange}
          onChange={(event) => {
            const url = event.currentTarget.value;
            setDraft((current) => ({ ...current, url }));
          }}
          data-testid="webhook-url"
        />
        <Checkbox.Group
          label={t('admin.webhooks.events')}
          value={draft.events}
          onChange={(events) => setDraft((current) => ({ ...current, events: events as WebhookEventType[] }))}
        >
          <Stack gap={6} mt={6}>
            {webhookEventTypes.map((type) => (
              <Checkbox key={type} value={type} label={type} disabled={!canChange} data-testid={`webhook-event-${type}`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label={t('admin.webhooks.enabled')}
          checked={draft.enabled}
          disabled={!canChange}
          onChange={(event) => {
            const enabled = event.currentTarget.checked;
            setDraft((current) => ({ ...current, enabled }));
          }}
        />
        {canChange && (
          <Group>
            <Button type="submit" disabled={!usable} data-testid="webhook-save">
              {t('admin.webhooks.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
