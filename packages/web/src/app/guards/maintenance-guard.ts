import { redirect } from 'react-router';
import { paths } from '@portal/contracts';
import type { Guard } from './guard';

/**
 * /maintenance exists for links from the old portal; while the service runs (and it runs
 * whenever this app is served) the page sends visitors home.
 */
export const maintenanceGuard: Guard = ({ url }) => (url.pathname === paths.maintenance ? redirect(paths.home) : undefined);
