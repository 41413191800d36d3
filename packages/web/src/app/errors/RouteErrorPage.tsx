import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorView } from '../../components/ErrorView';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/chunk-reload';
import { PublicFrame } from '../layouts/PublicFrame';
import { describeRouteError } from './describe-route-error';

/** Where a navigation ends that failed (a guard's error, a page's chunk) or whose page threw. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();

  useEffect(() => {
    // A page chunk missing after a deploy: reload for the new build (throttled).
    if (isChunkLoadError(error)) reloadAfterChunkError();
  }, [error]);

  const { status, message } = describeRouteError(error, t);
  return (
    <PublicFrame>
      <ErrorView status={status} message={message} />
    </PublicFrame>
  );
}
