import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import type { RuntimeConfig } from '@portal/contracts';
import { BusyGate } from '../components/BusyGate';
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
        {/* The translator is one for the app (lib/i18n.ts): its hooks need no provider. */}
        {children}
        <BusyGate />
        <Toasts />
      </MantineProvider>
    </RuntimeConfigContext>
  );
}
