import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorView } from '../../components/ErrorView';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/chunk-reload';
import { PublicFrame } from '../layouts/PublicFrame';
import { describeRouteError } from './describe-route-error';

/** The router's error element: whatever a route throws ends here. */
export function RouteErrorPage() {
  const error = useRouteError();
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
