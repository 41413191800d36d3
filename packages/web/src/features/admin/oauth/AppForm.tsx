import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEVICE_CODE_GRANT, outsideAppScopes, type AdminApp, type AdminAppSettings } from '@portal/contracts';

/** One URI a line, as an operator pastes them. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const grantLabels = { authorization_code: 'grantCode', refresh_token: 'grantRefresh', [DEVICE_CODE_GRANT]: 'grantDevice' } as const;

/**
 * An outside app's settings: name, redirect and post-logout URIs, back-channel logout URI, site,
 * scopes and grant types. Read-only for a first-party client or an operator who may not change
 * apps; `register` adds the public/confidential choice, fixed once the app exists.
 */
export function AppForm({ app, canChange, register, onSubmit, onCancel }: { app?: AdminApp; canChange: boolean; register?: boolean; onSubmit(settings: AdminAppSettings & { public: boolean }): void; onCancel?(): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(app?.name ?? '');
  const [redirects, setRedirects] = useState((app?.redirect_uris ?? []).join('\n'));
  const [postLogout, setPostLogout] = useState((app?.post_logout_redirect_uris ?? []).join('\n'));
  const [backchannel, setBackchannel] = useState(app?.backchannel_logout_uri ?? '');
  const [site, setSite] = useState(app?.site ?? '');
  const [scopes, setScopes] = useState<string[]>(app?.scopes ?? [...outsideAppScopes]);
  const [grants, setGrants] = useState<string[]>(app?.grant_types ?? ['authorization_code', 'refresh_token']);
  const [isPublic, setPublic] = useState(app?.public ?? false);
  const usable = name.trim().length > 0 && lines(redirects).length > 0;
  const readOnly = !canChange;
  const prefix = `app-${register ? 'new' : 'edit'}`;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!usable || readOnly) return;
        onSubmit({
          name: name.trim(),
          redirect_uris: lines(redirects),
          post_logout_redirect_uris: lines(postLogout),
          backchannel_logout_uri: backchannel.trim() || null,
          site: site.trim() || null,
          scopes: ['openid', ...scopes.filter((scope) => scope !== 'openid')] as AdminAppSettings['scopes'],
          grant_types: ['authorization_code', ...grants.filter((grant) => grant !== 'authorization_code')] as AdminAppSettings['grant_types'],
          public: isPublic,
        });
      }}
    >
      <Stack gap="sm">
        <TextInput label={t('admin.oauth.apps.name')} value={name} readOnly={readOnly} required maxLength={100} onChange={(event) => setName(event.currentTarget.value)} data-testid={`${prefix}-name`} />
        <Textarea
          label={t('admin.oauth.apps.redirectUris')}
          description={t('admin.oauth.apps.oneALine')}
          value={redirects}
          readOnly={readOnly}
          required
          autosize
          minRows={2}
          onChange={(event) => setRedirects(event.currentTarget.value)}
          data-testid={`${prefix}-redirects`}
        />
        <Textarea label={t('admin.oauth.apps.postLogoutUris')} description={t('admin.oauth.apps.oneALine')} value={postLogout} readOnly={readOnly} autosize minRows={1} onChange={(event) => setPostLogout(event.currentTarget.value)} />
        <TextInput label={t('admin.oauth.apps.backchannelUri')} description={t('admin.oauth.apps.backchannelHint')} type="url" value={backchannel} readOnly={readOnly} onChange={(event) => setBackchannel(event.currentTarget.value)} />
        <TextInput label={t('admin.oauth.apps.site')} type="url" value={site} readOnly={readOnly} onChange={(event) => setSite(event.currentTarget.value)} />
        <Checkbox.Group label={t('admin.oauth.apps.scopes')} value={scopes} onChange={(next) => !readOnly && setScopes(next)}>
          <Group gap="md" mt={6}>
            {(register || app?.kind !== 'first_party' ? outsideAppScopes : (app?.scopes ?? [])).map((scope) => (
              <Checkbox key={scope} value={scope} label={scope} disabled={readOnly || scope === 'openid'} />
            ))}
          </Group>
        </Checkbox.Group>
        <Checkbox.Group label={t('admin.oauth.apps.grants')} value={grants} onChange={(next) => !readOnly && setGrants(next)}>
          <Group gap="md" mt={6}>
            {Object.entries(grantLabels).map(([grant, label]) => (
              <Checkbox key={grant} value={grant} label={t(`admin.oauth.apps.${label}`)} disabled={readOnly || grant === 'authorization_code'} />
            ))}
          </Group>
        </Checkbox.Group>
        {register && <Checkbox label={t('admin.oauth.apps.public')} description={t('admin.oauth.apps.publicHint')} checked={isPublic} onChange={(event) => setPublic(event.currentTarget.checked)} data-testid="app-new-public" />}
        {canChange && (
          <Group gap="sm">
            <Button type="submit" disabled={!usable} data-testid={`${prefix}-submit`}>
              {register ? t('admin.oauth.apps.register') : t('admin.oauth.apps.save')}
            </Button>
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                {t('admin.oauth.apps.cancel')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}
