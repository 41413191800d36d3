import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /wallet/vnd: the VND balance, deposits and transactions. */
export function VndWalletPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('wallet.vnd.title')} description={t('wallet.vnd.description')} />
      <Section title={t('wallet.vnd.deposit')} description={t('wallet.vnd.depositDescription')} />
      <Section title={t('wallet.transactions')} description={t('wallet.transactionsDescription')} />
    </Stack>
  );
}
