import { useTranslation } from 'react-i18next';
import { ErrorView } from '../../components/ErrorView';
import { PublicFrame } from '../../components/PublicFrame';
import { describeRouteError } from './describe-route-error';

/** The error page's view, loaded on demand by LazyRouteErrorPage (which also reloads after a missing chunk). */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { status, message } = describeRouteError(error, t);
  return (
    <PublicFrame>
      <ErrorView status={status} message={message} />
    </PublicFrame>
  );
}
