import '@mantine/core/styles/Button.css';
import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';

/** /server-error: where the API client sends the user when the server answers above 500. */
export function ServerErrorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('system.serverError.title')} description={t('system.serverError.description')} />
      <Group>
        <Button onClick={() => location.assign(paths.home)}>{t('system.serverError.retry')}</Button>
        <Anchor component={Link} to={paths.home}>
          {t('errorPage.backHome')}
        </Anchor>
      </Group>
    </>
  );
}
