import { createContext, use } from 'react';
import { brands, type Brand, type RuntimeConfig } from '@portal/contracts';

export const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function useRuntimeConfig(): RuntimeConfig {
  const config = use(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig() outside <RuntimeConfigContext>');
  return config;
}

export function useBrand(): Brand {
  return brands[useRuntimeConfig().brand];
}
