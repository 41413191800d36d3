import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';
import { FailureAlert } from '../../components/FailureAlert';
import { FullPageLoader } from '../../components/FullPageLoader';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

interface ProviderReturnViewProps {
  title: string;
  description: string;
  /** The refusal to show, with `children` (other ways on) and the way back to /login; none: the loader while the sign-in finishes. */
  failure: string | null;
  failureTestId: string;
  /** The deletion-restore offer (useSignInResult), which replaces the loader while it is shown. */
  restoreElement: ReactNode;
  children?: ReactNode;
}

/** The page an outside provider sends the browser back to (/callback, /sso/redirect) while it finishes the sign-in, or its refusal. */
export function ProviderReturnView({ title, description, failure, failureTestId, restoreElement, children }: ProviderReturnViewProps) {
  return (
    <>
      <PageHeader title={title} description={description} />
      {failure ? (
        <Stack gap="md">
          <FailureAlert failure={failure} testId={failureTestId} />
          {children}
          <BackToLogin />
        </Stack>
      ) : (
        !restoreElement && <FullPageLoader />
      )}
      {restoreElement}
    </>
  );
}
