import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { TFunction } from 'i18next';
import { loginPathFor, type InvitationStatus } from '@portal/contracts';
import { ApiError, errorText } from '../lib/api';
import { currentUser } from '../lib/session';
import { PageHeader } from './PageHeader';
import { Spinner } from './Spinner';

type Outcome<P, A> =
  | { state: 'loading' }
  | { state: 'signedOut'; preview: P }
  | { state: 'ready'; preview: P }
  | { state: 'done'; result: A }
  | { state: 'failed'; message: string };

/** The texts of one kind of invitation's result screen, already translated. */
export interface InvitationResultTexts {
  title: string;
  description: string;
  loading: string;
  signIn: string;
  accept: string;
  /** The link is missing or not one of ours. */
  invalid: string;
  /** Signed in as another email than the invited one. */
  otherPerson: string;
  /** Why a link that is not pending cannot be used. */
  refusal: Record<Exclude<InvitationStatus, 'pending'>, string>;
}

/** The texts of the result screen from the catalogue: `register.<page>.*` and `errors.<errors>.invitation_*`. */
export function invitationResultTexts(t: TFunction, page: 'organizationInvitation' | 'moderatorInvitation', errors: 'organizations' | 'moderators'): InvitationResultTexts {
  return {
    title: t(`auth.register.${page}.title`),
    description: t(`auth.register.${page}.description`),
    loading: t(`auth.register.${page}.loading`),
    signIn: t(`auth.register.${page}.signIn`),
    accept: t(`auth.register.${page}.accept`),
    invalid: t(`errors.${errors}.invitation_invalid`),
    otherPerson: t(`errors.${errors}.invitation_other_person`),
    refusal: { expired: t(`errors.${errors}.invitation_expired`), revoked: t(`errors.${errors}.invitation_revoked`), accepted: t(`errors.${errors}.invitation_used`) },
  };
}

export interface InvitationResultProps<P extends { email: string; status: InvitationStatus }, A> {
  token: string | undefined;
  texts: InvitationResultTexts;
  preview(token: string): Promise<P>;
  accept(token: string): Promise<A>;
  /** What the invitation is for (shown before accepting). */
  summary(preview: P): ReactNode;
  /** The accepted invitation. */
  done(result: A): ReactNode;
}

/**
 * The result screen of a mailed invitation for a person with an account (an organization's, a
 * website moderator's): what it is for, sign in first (and come back here), then accept once;
 * expired, withdrawn, used or another person's links say so.
 */
export function InvitationResult<P extends { email: string; status: InvitationStatus }, A>({ token, texts, preview, accept, summary, done }: InvitationResultProps<P, A>) {
  const location = useLocation();
  const [outcome, setOutcome] = useState<Outcome<P, A>>(token ? { state: 'loading' } : { state: 'failed', message: texts.invalid });
  const [accepting, setAccepting] = useState(false);
  const failure = (error: unknown) => (error instanceof ApiError ? errorText(error) : texts.invalid);

  useEffect(() => {
    if (!token) return;
    let current = true;
    Promise.all([preview(token), currentUser().catch(() => null)])
      .then(([answer, user]) => {
        if (!current) return;
        if (answer.status !== 'pending') return setOutcome({ state: 'failed', message: texts.refusal[answer.status] });
        if (!user) return setOutcome({ state: 'signedOut', preview: answer });
        if (user.email && user.email.toLowerCase() !== answer.email) return setOutcome({ state: 'failed', message: texts.otherPerson });
        setOutcome({ state: 'ready', preview: answer });
      })
      .catch((error: unknown) => current && setOutcome({ state: 'failed', message: failure(error) }));
    return () => {
      current = false;
    };
    // The texts follow the language; the link is read once per token.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const onAccept = async () => {
    if (!token) return;
    setAccepting(true);
    try {
      setOutcome({ state: 'done', result: await accept(token) });
    } catch (error) {
      setOutcome({ state: 'failed', message: failure(error) });
    } finally {
      setAccepting(false);
    }
  };

  const body = () => {
    switch (outcome.state) {
      case 'loading':
        return (
          <Stack align="center" role="status">
            <Spinner />
            <Text>{texts.loading}</Text>
          </Stack>
        );
      case 'signedOut':
      case 'ready':
        return (
          <Stack gap="sm">
            <Text data-testid="invitation-summary">{summary(outcome.preview)}</Text>
            {outcome.state === 'signedOut' ? (
              <Button component={Link} to={loginPathFor(location.pathname)} state={{ identifier: outcome.preview.email }} data-testid="invitation-sign-in">
                {texts.signIn}
              </Button>
            ) : (
              <Button onClick={() => void onAccept()} loading={accepting} data-testid="invitation-accept">
                {texts.accept}
              </Button>
            )}
          </Stack>
        );
      case 'done':
        return done(outcome.result);
      default:
        return (
          <Alert color="red" role="alert" data-testid="invitation-failed">
            {outcome.message}
          </Alert>
        );
    }
  };

  return (
    <Stack gap="md">
      <PageHeader title={texts.title} description={texts.description} />
      {body()}
    </Stack>
  );
}
