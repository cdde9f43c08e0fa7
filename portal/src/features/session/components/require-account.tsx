import type { UserType } from '@scn/proto';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { paths } from '../../../config/paths';
import { dashboardPathFor, useSession } from '../store';

export interface RequireAccountProps {
  userType: UserType;
  children: ReactNode;
}

/**
 * docs/product/screens.md#dashboards-and-information-pages access rules of the dashboards: only an authenticated account of the given type;
 * the other type goes to its own dashboard, a signed-out visitor to '/'. Nothing is decided
 * before the start-up session check has finished.
 */
export function RequireAccount({ userType, children }: RequireAccountProps) {
  const { initialized, user } = useSession();
  if (!initialized) {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>Checking your session...</span>
      </div>
    );
  }
  if (!user) return <Redirect to={paths.home} replace />;
  if (user.userType !== userType) return <Redirect to={dashboardPathFor(user.userType)} replace />;
  return <>{children}</>;
}
