import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import type { RuntimeConfig } from '@portal/contracts';
import { BusyGate } from '../components/BusyGate';
import { i18n } from '../lib/i18n';
import { RuntimeConfigContext } from '../lib/runtime-context';
import { cssVariablesResolver, themeFor } from './theme';
import { Toasts } from './toasts';

interface AppProvidersProps {
  config: RuntimeConfig;
  /** The response's CSP nonce, for the <style> tags Mantine inserts. */
  nonce?: string;
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals. */
  env?: 'default' | 'test';
}

export function AppProviders({ config, nonce, children, env }: AppProvidersProps) {
  return (
    <RuntimeConfigContext value={config}>
      <MantineProvider theme={themeFor(config.brand)} cssVariablesResolver={cssVariablesResolver} deduplicateCssVariables={false} getStyleNonce={nonce ? () => nonce : undefined} env={env}>
        <I18nextProvider i18n={i18n}>
          {children}
          <BusyGate />
          <Toasts />
        </I18nextProvider>
      </MantineProvider>
    </RuntimeConfigContext>
  );
}
