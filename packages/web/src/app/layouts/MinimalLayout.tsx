import { Outlet } from 'react-router';
import { PublicFrame } from '../../components/PublicFrame';

/** Layout route for public pages that need no service panel. */
export function MinimalLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  );
}
