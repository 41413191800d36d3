import { lazy, Suspense } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorView } from '../../components/ErrorView';
import { FullPageLoader } from '../../components/FullPageLoader';
import { adminPages } from './routes';

function NotFound() {
  const { t } = useTranslation();
  return <ErrorView status={404} message={t('errors.page_not_found')} />;
}

/** Made once: a lazy page made during render would load again and lose its state on every render. */
const routes: RouteObject[] = [
  ...adminPages.map((page): RouteObject => {
    const Page = lazy(async () => ({ default: await page.load() }));
    return page.path ? { path: page.path, element: <Page /> } : { index: true, element: <Page /> };
  }),
  { path: '*', element: <NotFound /> },
];

/** The console's pages under /admin, each its own chunk; any other path is the not-found page. */
export function AdminRoutes() {
  return <Suspense fallback={<FullPageLoader />}>{useRoutes(routes)}</Suspense>;
}
