import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /wallet/whc: the WHC balance, transfers and transactions. */
export function WhcWalletPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('wallet.whc.title')} description={t('wallet.whc.description')} />
      <Section title={t('wallet.whc.transfer')} description={t('wallet.whc.transferDescription')} />
      <Section title={t('wallet.transactions')} description={t('wallet.transactionsDescription')} />
    </Stack>
  );
}
