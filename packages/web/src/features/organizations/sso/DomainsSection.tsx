import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Code.css';
import { useState } from 'react';
import { Button, Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, type CompanySsoDomain } from '@portal/contracts';
import { StateBadge } from '../../../components/cells';
import { DataTable } from '../../../components/DataTable';
import { Section } from '../../../components/Section';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { ApiError, errorText, notify } from '../../../lib/api';
import { useLanguage } from '../../../lib/use-language';
import { removeSsoDomain, useSsoChange, verifySsoDomain } from '../api';
import { AddDomainForm } from './AddDomainForm';
import { MailProof } from './MailProof';

/** The email domains: add one (its TXT record to publish), verify now, remove. */
export function DomainsSection({ domains }: { domains: CompanySsoDomain[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  // The add form starts afresh (no leftover message) after each domain added.
  const [formKey, setFormKey] = useState(0);
  const verify = useSsoChange(verifySsoDomain);
  const remove = useSsoChange(removeSsoDomain);
  const [rowFailure, setRowFailure] = useState<{ domain: string; text: string } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const verifyNow = async (domain: string) => {
    setRowFailure(null);
    try {
      await verify.mutateAsync([domain]);
      notify('success', t('organizations.sso.domains.verifiedToast', { domain }));
    } catch (error) {
      if (error instanceof ApiError) setRowFailure({ domain, text: errorText(error) });
    }
  };

  return (
    <Section title={t('organizations.sso.domains.title')} description={t('organizations.sso.domains.description')}>
      <AddDomainForm key={formKey} onAdded={() => setFormKey((key) => key + 1)} />
      {domains.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('organizations.sso.domains.empty')}
        </Text>
      ) : (
        <DataTable rows={domains} rowKey={(row) => row.domain} minWidth={640} testId="sso-domains" rowTestId="sso-domain"
          columns={[
            { header: t('organizations.sso.domains.domain'), text: (row) => row.domain, strong: true },
            {
              header: t('organizations.sso.domains.status'),
              cell: (row) =>
                row.verified ? (
                  <Stack gap={0}>
                    <StateBadge color="green" size="sm">{t('organizations.sso.domains.verified')}</StateBadge>
                    {row.verified_at && (
                      <Text size="xs" c="dimmed">
                        {formatDate(row.verified_at, language)}
                      </Text>
                    )}
                  </Stack>
                ) : (
                  <StateBadge color="yellow" size="sm">{t('organizations.sso.domains.pending')}</StateBadge>
                ),
            },
            {
              header: t('organizations.sso.domains.record'),
              cell: (row) =>
                row.verified ? (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                ) : (
                  <Stack gap={2}>
                    <Text size="xs">{t('organizations.sso.domains.publish', { domain: row.domain })}</Text>
                    <Code style={{ wordBreak: 'break-all' }} data-testid="sso-domain-record">
                      {row.txt_record}
                    </Code>
                    {rowFailure?.domain === row.domain && (
                      <Text size="xs" c="red" role="alert" data-testid="sso-domain-error">
                        {rowFailure.text}
                      </Text>
                    )}
                    <MailProof domain={row.domain} />
                  </Stack>
                ),
            },
          ]}
          actions={{
            label: t('organizations.members.actions'),
            cell: (row) => (
              <>
                {!row.verified && (
                  <Button
                    variant="light"
                    size="xs"
                    loading={verify.isPending && verify.variables?.[0] === row.domain}
                    aria-label={t('organizations.sso.domains.verifyNamed', { domain: row.domain })}
                    onClick={() => void verifyNow(row.domain)}
                  >
                    {t('organizations.sso.domains.verify')}
                  </Button>
                )}
                <Button variant="subtle" color="red" size="xs" aria-label={t('organizations.sso.domains.removeNamed', { domain: row.domain })} onClick={() => setRemoving(row.domain)}>
                  {t('organizations.sso.domains.remove')}
                </Button>
              </>
            ),
          }}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        danger
        title={t('organizations.sso.domains.removeTitle', { domain: removing ?? '' })}
        confirmLabel={t('organizations.sso.domains.remove')}
        onConfirm={async () => {
          if (!removing) return;
          await remove.mutateAsync([removing]);
          notify('success', t('organizations.sso.domains.removed', { domain: removing }));
        }}
      >
        {t('organizations.sso.domains.removeBody')}
      </ConfirmDialog>
    </Section>
  );
}
