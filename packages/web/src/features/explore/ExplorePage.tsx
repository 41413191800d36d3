import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/SimpleGrid.css';
import { Anchor, Button, SimpleGrid, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, serviceCatalogue, type InnerService, type ServiceScope } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useRuntimeConfig } from '../../lib/runtime-context';

const products = Object.keys(serviceCatalogue) as (ServiceScope | InnerService)[];

/** /login/explore: the product family, for signed-out visitors and after a sign-out. */
export function ExplorePage() {
  const { t } = useTranslation();
  const { productLinks } = useRuntimeConfig();
  return (
    <Stack gap="lg">
      <PageHeader title={t('explore.title')} description={t('explore.description')} />
      <div>
        <Button component={Link} to={paths.login}>
          {t('explore.signIn')}
        </Button>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {products.map((key) => {
          const name = serviceCatalogue[key].name;
          const link = productLinks[key];
          return (
            <Section key={key} title={name} description={t(`scopes.${key}.blurb`)}>
              {link && (
                <Anchor href={link} size="sm">
                  {t('explore.open', { service: name })}
                </Anchor>
              )}
            </Section>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
