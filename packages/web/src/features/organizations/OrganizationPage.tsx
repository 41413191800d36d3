import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Combobox.css';
import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  formatDate,
  mayChangeRole,
  mayInvite,
  mayManageInvitations,
  mayRemove,
  organizationRoles,
  paths,
  TRIAL_DAYS,
  type OrganizationMember,
  type OrganizationRole,
} from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { NameCell, StateBadge } from '../../components/cells';
import { DataTable } from '../../components/DataTable';
import { Section } from '../../components/Section';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { BusinessTrialForm } from '../../components/BusinessTrialForm';
import { ApiError, errorText, fieldErrors, notify } from '../../lib/api';
import { useMyOrganization } from '../../lib/organization';
import { useForm } from '../../lib/use-form';
import { email as emailRule } from '../../lib/validators';
import { changeRole, invite, leaveOrganization, removeMember, resendInvitation, revokeInvitation, useOrganizationChange } from './api';
import { useLanguage } from '../../lib/use-language';
import { LoadingIndicator } from '../../components/LoadingIndicator';
import { FailureAlert } from '../../components/FailureAlert';

type Pending = { kind: 'remove'; member: OrganizationMember } | { kind: 'role'; member: OrganizationMember; role: OrganizationRole } | { kind: 'leave' } | null;

/** /organization: the member's organization. Each action shows only to a role that may take it; the server checks again. */
export function OrganizationPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const organization = useMyOrganization();
  const [pending, setPending] = useState<Pending>(null);
  // What the server refused in the open dialog: shown inside it, which stays open to try again or cancel.
  const [failure, setFailure] = useState<string | null>(null);
  const remove = useOrganizationChange(removeMember);
  const setRole = useOrganizationChange(changeRole);
  const leave = useOrganizationChange(leaveOrganization);
  const resend = useOrganizationChange(resendInvitation);
  const revoke = useOrganizationChange(revokeInvitation);

  if (organization.isPending) {
    return (
      <Group justify="center" py="xl">
        <LoadingIndicator />
      </Group>
    );
  }
  const data = organization.data;
  if (!data) return <NoOrganization />;
  const me = data.role;
  // The last owner cannot leave (the server answers organizations.last_owner): they are not offered it.
  const soleOwner = me === 'owner' && data.members.filter((member) => member.role === 'owner').length === 1;
  const closeDialog = () => {
    setPending(null);
    setFailure(null);
  };
  const roleName = (role: OrganizationRole) => t(`organizations.roles.${role}`);
  /** Resends or revokes an invitation from its row and says so (a refusal got the API client's toast). */
  const onInvitation = (change: typeof resend | typeof revoke, id: string, done: string) => () =>
    void change.mutateAsync([id]).then(
      () => notify('success', done),
      () => undefined,
    );
  const roleChoices = (member: OrganizationMember) => organizationRoles.filter((role) => role === member.role || mayChangeRole(me, member.role, role));

  /** The confirmed change; a refusal is thrown on to the dialog (which stays open) after it is shown in it. */
  const act = async () => {
    if (pending?.kind === 'remove') {
      await remove.mutateAsync([pending.member.email]);
      notify('success', t('organizations.confirm.removed', { email: pending.member.email }));
    } else if (pending?.kind === 'role') {
      await setRole.mutateAsync([pending.member.email, pending.role]);
      notify('success', t('organizations.confirm.roleChanged', { email: pending.member.email, role: roleName(pending.role) }));
    } else if (pending?.kind === 'leave') {
      await leave.mutateAsync([]);
      notify('success', t('organizations.confirm.left', { name: data.name }));
      void navigate(paths.home);
    }
  };

  return (
    <Stack gap="lg">
      <PageHeader title={data.name} description={t('organizations.description', { role: roleName(me) })} />

      <Section title={t('organizations.members.title')} description={t('organizations.members.description', { count: data.members.length })}>
        <DataTable rows={data.members} rowKey={(member) => member.email} minWidth={640} testId="organization-members" rowTestId="organization-member"
          columns={[
            {
              header: t('organizations.members.member'),
              cell: (member) => <NameCell strong name={`${member.name ?? member.email}${member.email === data.email ? ` ${t('organizations.members.you')}` : ''}`} detail={member.name && member.email} />,
            },
            {
              header: t('organizations.members.role'),
              cell: (member) => {
                const choices = member.email === data.email ? [] : roleChoices(member);
                return choices.length > 1 ? (
                  <NativeSelect
                    size="xs"
                    w={140}
                    aria-label={t('organizations.members.roleOf', { email: member.email })}
                    value={member.role}
                    data={choices.map((role) => ({ value: role, label: roleName(role) }))}
                    onChange={(event) => setPending({ kind: 'role', member, role: event.currentTarget.value as OrganizationRole })}
                  />
                ) : (
                  <Badge variant="light" color={member.role === 'owner' ? 'grape' : member.role === 'admin' ? 'blue' : 'gray'} data-testid="member-role">
                    {roleName(member.role)}
                  </Badge>
                );
              },
            },
            { header: t('organizations.members.joined'), text: (member) => formatDate(member.joined_at, language) },
          ]}
          actions={{
            label: t('organizations.members.actions'),
            cell: (member) =>
              member.email !== data.email &&
              mayRemove(me, member.role) && (
                <Button variant="subtle" color="red" size="xs" onClick={() => setPending({ kind: 'remove', member })} aria-label={t('organizations.members.removeNamed', { email: member.email })}>
                  {t('organizations.members.remove')}
                </Button>
              ),
          }}
        />
      </Section>

      {mayManageInvitations(me) && (
        <Section title={t('organizations.invite.title')} description={t('organizations.invite.description')}>
          <InviteForm me={me} />
          <Title order={3} fz="h5" mt="sm">
            {t('organizations.invitations.title')}
          </Title>
          {data.invitations.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('organizations.invitations.empty')}
            </Text>
          ) : (
            <DataTable rows={data.invitations} rowKey={(invitation) => invitation.id} minWidth={640} testId="organization-invitations" rowTestId="organization-invitation"
              columns={[
                { header: t('organizations.invitations.email'), text: (invitation) => invitation.email },
                { header: t('organizations.members.role'), text: (invitation) => roleName(invitation.role) },
                {
                  header: t('organizations.invitations.expires'),
                  cell: (invitation) =>
                    invitation.expired ? (
                      <StateBadge color="red" size="sm">{t('organizations.invitations.expired')}</StateBadge>
                    ) : (
                      <Text size="sm">{formatDate(invitation.expires_at, language)}</Text>
                    ),
                },
              ]}
              actions={{
                label: t('organizations.members.actions'),
                cell: (invitation) =>
                  mayInvite(me, invitation.role) && (
                    <>
                      <Button
                        variant="subtle"
                        size="xs"
                        loading={resend.isPending && resend.variables?.[0] === invitation.id}
                        aria-label={t('organizations.invitations.resendNamed', { email: invitation.email })}
                        onClick={onInvitation(resend, invitation.id, t('organizations.invitations.resent', { email: invitation.email }))}
                      >
                        {t('organizations.invitations.resend')}
                      </Button>
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        aria-label={t('organizations.invitations.revokeNamed', { email: invitation.email })}
                        onClick={onInvitation(revoke, invitation.id, t('organizations.invitations.revoked', { email: invitation.email }))}
                      >
                        {t('organizations.invitations.revoke')}
                      </Button>
                    </>
                  ),
              }}
            />
          )}
        </Section>
      )}

      <Section title={t('organizations.leave.title')} description={soleOwner ? t('organizations.leave.soleOwner') : t('organizations.leave.description')}>
        {!soleOwner && (
          <Group>
            <Button variant="default" color="red" onClick={() => setPending({ kind: 'leave' })} data-testid="leave-organization">
              {t('organizations.leave.action')}
            </Button>
          </Group>
        )}
      </Section>

      <ConfirmDialog
        opened={pending !== null}
        onClose={closeDialog}
        danger={pending?.kind !== 'role'}
        title={
          pending?.kind === 'remove'
            ? t('organizations.confirm.removeTitle', { email: pending.member.email })
            : pending?.kind === 'role'
              ? t('organizations.confirm.roleTitle', { email: pending.member.email, role: roleName(pending.role) })
              : t('organizations.confirm.leaveTitle', { name: data.name })
        }
        confirmLabel={pending?.kind === 'remove' ? t('organizations.members.remove') : pending?.kind === 'role' ? t('organizations.confirm.change') : t('organizations.leave.action')}
        onConfirm={async () => {
          setFailure(null);
          try {
            await act();
          } catch (error) {
            if (error instanceof ApiError) setFailure(errorText(error));
            throw error;
          }
        }}
      >
        {pending?.kind === 'remove' ? t('organizations.confirm.removeBody') : pending?.kind === 'role' ? t('organizations.confirm.roleBody') : t('organizations.confirm.leaveBody')}
        {/* The dialog's body is one paragraph: the refusal is a line of it, not a block inside it. */}
        {failure && (
          <Text component="span" display="block" mt="sm" size="sm" c="red.8" fw={500} role="alert" data-testid="organization-dialog-error">
            {failure}
          </Text>
        )}
      </ConfirmDialog>
    </Stack>
  );
}

/** An account in no organization starts one here: the business trial, with this account as its owner. */
function NoOrganization() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return (
    <Stack gap="lg">
      <PageHeader title={t('organizations.title')} description={t('organizations.notMember')} />
      <Section title={t('organizations.start.title')} description={t('organizations.start.description', { days: TRIAL_DAYS })}>
        <BusinessTrialForm
          onStarted={async () => {
            notify('success', t('organizations.start.started'));
            // Everything shown reads again: this page the new organization, the side bar the owner's pages under it.
            await client.invalidateQueries();
          }}
        />
      </Section>
    </Stack>
  );
}

/** Invite by email with a role: the roles this member may give; 7015 and field errors show under the email. */
function InviteForm({ me }: { me: OrganizationRole }) {
  const { t } = useTranslation();
  const send = useOrganizationChange(invite);
  const [failure, setFailure] = useState<string | null>(null);
  const roles = organizationRoles.filter((role) => mayInvite(me, role));
  const form = useForm({ email: '', role: 'member' as OrganizationRole }, () => ({ email: emailRule }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (send.isPending || !form.check()) return;
    try {
      const sent = await send.mutateAsync([{ email: form.values.email.trim(), role: form.values.role }]);
      notify('success', t('organizations.invite.sent', { email: sent.email }));
      form.set('email', '');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fields = fieldErrors(error);
      if (fields.email) form.setServerErrors({ email: fields.email });
      else setFailure(errorText(error));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="invite-form">
      <Stack gap="sm">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('organizations.invite.email')}
            type="email"
            autoComplete="off"
            style={{ flex: '1 1 240px' }}
            {...form.text('email')}
          />
          <NativeSelect
            label={t('organizations.members.role')}
            w={160}
            value={form.values.role}
            data={roles.map((role) => ({ value: role, label: t(`organizations.roles.${role}`) }))}
            onChange={(event) => form.set('role', event.currentTarget.value as OrganizationRole)}
          />
          <Button type="submit" mt={24} loading={send.isPending}>
            {t('organizations.invite.submit')}
          </Button>
        </Group>
        <FailureAlert failure={failure} testId="invite-error" />
      </Stack>
    </form>
  );
}
