import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/SimpleGrid.css';
import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { serviceCatalogue, themes, type InnerService, type ServiceScope } from '@portal/contracts';
import { useRuntimeConfig } from '../lib/runtime-context';

export type ProductKey = ServiceScope | InnerService;

/** A product on another site opens in a new tab, the portal staying where it was; one on this origin opens here. */
function isOtherSite(link: string): boolean {
  try {
    return new URL(link, window.location.href).origin !== window.location.origin;
  } catch {
    return false;
  }
}

/** The product family, in catalogue order. */
export const productKeys = Object.keys(serviceCatalogue) as ProductKey[];

interface ProductGridProps {
  /** The accessible name of a product's button: "Open SafeChain". */
  openLabel(name: string): string;
  /** What the button shows, when shorter than its accessible name ("Open"). */
  buttonText?: string;
  /** A product's text; the sign-up blurb of its scope by default. */
  describe?(key: ProductKey): string;
  /** Columns by width; the default suits a full-width page. */
  cols?: Record<string, number>;
}

/**
 * The products of the family, each with its blurb, accent and a way into it. Where each
 * lives is configuration (RuntimeConfig.productLinks: the server gives every product its
 * public site by default); a product with no link shows no button.
 */
export function ProductGrid({ openLabel, buttonText, describe, cols = { base: 1, xs: 2, lg: 3 } }: ProductGridProps) {
  const { t } = useTranslation();
  const { productLinks } = useRuntimeConfig();
  // Products one can open come first (a stable sort keeps the catalogue order otherwise).
  const shown = [...productKeys].sort((a, b) => Number(Boolean(productLinks[b])) - Number(Boolean(productLinks[a])));

  return (
    <SimpleGrid cols={cols} spacing="md" data-testid="product-grid">
      {shown.map((key) => {
        const entry = serviceCatalogue[key];
        const link = productLinks[key];
        return (
          <Paper
            key={key}
            withBorder
            p="md"
            radius="md"
            component="article"
            data-testid={`product-${key}`}
            style={{ borderTop: `3px solid ${themes[entry.theme].accent}` }}
          >
            <Stack gap="xs" h="100%" justify="space-between">
              <Stack gap={6}>
                <Title order={3} fz="md">
                  {entry.name}
                </Title>
                <Text size="sm" c="dimmed">
                  {describe ? describe(key) : t(`app.scopes.${key}.blurb`)}
                </Text>
              </Stack>
              {link && (
                <Button
                  component="a"
                  href={link}
                  {...(isOtherSite(link) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  variant="light"
                  size="xs"
                  style={{ alignSelf: 'flex-start' }}
                  aria-label={openLabel(entry.name)}
                  data-testid={`product-${key}-open`}
                >
                  {buttonText ?? openLabel(entry.name)}
                </Button>
              )}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
