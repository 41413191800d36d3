import { lazy, Suspense, type ReactNode } from 'react';
import type { OperatorRole } from '@portal/contracts';
import { useRoutes, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorView } from '../../components/ErrorView';
import { FullPageLoader } from '../../components/FullPageLoader';
import { useOperator } from './operator-context';
import { adminPages } from './routes';

function NotFound() {
  const { t } = useTranslation();
  return <ErrorView status={404} message={t('errors.page_not_found')} />;
}

/**
 * A page in the menu for some roles only is the not-found page for the others, as the menu and
 * the server have it (typing /admin/operators as support shows nothing the server would refuse).
 */
function ForRoles({ roles, children }: { roles: readonly OperatorRole[] | undefined; children: ReactNode }) {
  const held = useOperator().roles;
  if (roles && !held.includes('owner') && !roles.some((role) => held.includes(role))) return <NotFound />;
  return children;
}

/** Made once: a lazy page made during render would load again and lose its state on every render. */
const routes: RouteObject[] = [
  ...adminPages.map((page): RouteObject => {
    const Page = lazy(async () => ({ default: await page.load() }));
    const element = (
      <ForRoles roles={page.nav?.roles}>
        <Page />
      </ForRoles>
    );
    return page.path ? { path: page.path, element } : { index: true, element };
  }),
  { path: '*', element: <NotFound /> },
];

/** The console's pages under /admin, each its own chunk; any other path is the not-found page. */
export function AdminRoutes() {
  return <Suspense fallback={<FullPageLoader />}>{useRoutes(routes)}</Suspense>;
}
