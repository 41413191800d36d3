import { isRouteErrorResponse } from 'react-router';
import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api';

export interface RouteErrorDescription {
  status: number;
  message: string;
}

/** Error data a loader may throw with `data()`: a message, or a catalogue key to translate. */
interface ErrorData {
  message?: string;
  messageKey?: string;
  params?: Record<string, string | number>;
}

function errorDataMessage(data: unknown, t: TFunction): string | undefined {
  if (typeof data === 'string') return data || undefined;
  if (!data || typeof data !== 'object') return undefined;
  const { message, messageKey, params } = data as ErrorData;
  if (messageKey) {
    const translated: unknown = t(`errors.${messageKey}` as never, params as never);
    if (typeof translated === 'string') return translated;
  }
  return message || undefined;
}

/** What react-router's `data(value, init)` makes. */
function isThrownData(error: unknown): error is { data: unknown; init?: { status?: number } } {
  return !!error && typeof error === 'object' && (error as { type?: unknown }).type === 'DataWithResponseInit';
}

/**
 * Any error a route can end in, as the status and message the error page shows: the
 * status defaults to 500 and the message to 'Error' (the spec's error catalogue).
 */
export function describeRouteError(error: unknown, t: TFunction): RouteErrorDescription {
  const fallback = t('errors.fallback');
  // A guard's `data()` (middleware.ts), thrown as is: the declarative router does not wrap it.
  if (isThrownData(error)) {
    return { status: error.init?.status ?? 500, message: errorDataMessage(error.data, t) ?? fallback };
  }
  if (isRouteErrorResponse(error)) {
    const notFound = error.status === 404 ? t('errors.page_not_found') : undefined;
    return { status: error.status, message: errorDataMessage(error.data, t) ?? notFound ?? (error.statusText || fallback) };
  }
  if (error instanceof ApiError) return { status: error.status ?? 500, message: error.message || fallback };
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return { status: typeof status === 'number' ? status : 500, message: error.message || fallback };
  }
  return { status: 500, message: fallback };
}
