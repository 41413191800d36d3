import { useEffect, useRef, useState } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { LightField, LightForm, LightSubmit } from './LightField';
import { PageHeader } from '../../components/PageHeader';
import { SocialButtons } from '../../components/SocialButtons';
import { loadPagesCatalogue } from '../../lib/i18n';
import { useCurrentService } from '../../lib/service';
import { recalledIdentifier, rememberIdentifier, stateValue } from '../../lib/flow-storage';
import { useForm } from '../../lib/use-form';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { email as emailRule, identifier } from '../../lib/validators';
import type { OnPremiseOutcome } from '../../lib/onpremise';
import { PasskeySignInButton } from './PasskeySignInButton';
import { useSignInResult } from './use-sign-in-result';
import { addressTyping } from '../../lib/address-input';

/**
 * /login: the first sign-in step, the email or username. The identifier goes to the password
 * step in router state (and this tab's storage), and the query (`next`, OAuth and entry
 * values) goes along in the URL. On the password manager's brand an email is first asked
 * about on-premise discovery (lib/onpremise, loaded on submit): a member of an organization
 * running its own server is sent to that server's login page instead.
 */
export function LoginPage() {
  const { t, i18n } = useTranslation();
  const { search, state } = useLocation();
  const navigate = useNavigate();
  const service = useCurrentService();
  const { allowedRedirectOrigins, brand } = useRuntimeConfig();
  const [discovering, setDiscovering] = useState(false);
  const [notActivated, setNotActivated] = useState<string | null>(null);
  const form = useForm({ identifier: stateValue(state, 'identifier') ?? recalledIdentifier() }, () => ({ identifier }));
  // A passkey sign-in that still needs the second factor (two-step on, no user verification).
  const result = useSignInResult();
  // The passkey autofill (and its ceremony code) starts with the visitor's first use of the
  // identifier field: a click or key in it, or focus coming to it. Not the autoFocus at
  // mount (React focuses it in the commit, before this page's effects run): a visit that
  // never touches the field loads no passkey code.
  const [autofillArmed, setAutofillArmed] = useState(false);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
  }, []);
  const armAutofill = () => {
    if (!autofillArmed) setAutofillArmed(true);
  };

  if (result.secondStep) return result.secondStep;

  const submit = async () => {
    if (discovering || !form.check()) return;
    const value = form.values.identifier.trim();
    rememberIdentifier(value);
    setNotActivated(null);
    if (brand === 'locker' && emailRule(value) === null) {
      setDiscovering(true);
      let outcome: OnPremiseOutcome = { kind: 'none' };
      try {
        const { discoverOnPremise, onPremiseOpenerOrigin } = await import('../../lib/onpremise');
        // The opener (a login client) hears the result only at the product origin it named in `?origin=`.
        outcome = await discoverOnPremise(value, i18n.language, { openerOrigin: onPremiseOpenerOrigin(search, allowedRedirectOrigins, location.origin) });
      } catch {
        // the discovery code did not load: sign-in goes on here
      }
      // On its way to the on-premise login page: the button stays busy until the page goes.
      if (outcome.kind === 'redirect') return;
      setDiscovering(false);
      if (outcome.kind === 'inactive') return setNotActivated(outcome.result.email);
      if (outcome.kind === 'field') return form.setServerErrors({ identifier: outcome.error });
    }
    void navigate(`${paths.loginPassword}${search}`, { state: { identifier: value } });
  };

  return (
    <>
      <PageHeader title={t('auth.login.title')} description={t('auth.login.description', { service: service.entry.name })} />
      <LightForm onSubmit={submit}>
        <LightField
          label={t('auth.login.identifierLabel')}
          name="username"
          // "webauthn": the browser offers this site's passkeys here too (PasskeySignInButton's autofill).
          autoComplete="username webauthn"
          {...addressTyping}
          autoFocus
          onFocus={() => mounted.current && armAutofill()}
          onPointerDown={armAutofill}
          onKeyDown={armAutofill}
          {...form.text('identifier')}
        />
        {notActivated && (
          <Text size="sm" c="red.8" role="alert" data-testid="onpremise-not-activated">
            {t('auth.login.onPremiseNotActivated', { email: notActivated })}
          </Text>
        )}
        <LightSubmit loading={discovering} disabled={discovering}>
          {t('auth.login.continue')}
        </LightSubmit>
      </LightForm>
      <Stack mt="md">
        <PasskeySignInButton
          autofill={autofillArmed}
          onChallenge={(next) => {
            // The step's text is in the `pages` part, not shipped with this first step.
            void loadPagesCatalogue().then(() => result.showSecondStep(next));
          }}
        />
        <SocialButtons search={search} />
      </Stack>
      <Stack gap="xs" mt="lg">
        <Anchor component={Link} to={`${paths.loginQuick}${search}`} size="sm">
          {t('auth.login.quickSignIn')}
        </Anchor>
        <Anchor component={Link} to={`${paths.loginSso}${search}`} size="sm">
          {t('auth.login.ssoSignIn')}
        </Anchor>
        <Anchor component={Link} to={`${paths.forgot}${search}`} size="sm">
          {t('auth.login.forgotPassword')}
        </Anchor>
        <Text size="sm">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to={`${paths.register}${search}`}>
            {t('auth.login.createAccount')}
          </Anchor>
        </Text>
      </Stack>
    </>
  );
}
