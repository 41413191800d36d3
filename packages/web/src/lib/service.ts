import { useLocation } from 'react-router';
import { resolveService, themes, type ServiceScope } from '@portal/contracts';
import { readEntryParam } from './entry-params';
import { useBrand } from './runtime-context';

export type CurrentService = ReturnType<typeof resolveService> & { accent: string };

/** The service an entry is for: URL first, then the entry cookies, then the brand default. */
export function currentService(search: string, fallback: ServiceScope): CurrentService {
  const service = resolveService(readEntryParam('SERVICE_SCOPE', search), readEntryParam('INNER_SERVICE', search), fallback);
  return { ...service, accent: themes[service.entry.theme].accent };
}

export function useCurrentService(): CurrentService {
  const { search } = useLocation();
  return currentService(search, useBrand().defaultScope);
}
