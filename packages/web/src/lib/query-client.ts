import { QueryClient } from '@tanstack/react-query';

/**
 * The account pages' server-state cache. No automatic retries: the API client's policy
 * already reports every failure (toast, redirect), and a retry would report it again.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
