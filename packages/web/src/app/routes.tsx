import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router';
import { paths } from '@portal/contracts';
import { FullPageLoader } from '../components/FullPageLoader';
import { loadAccountCatalogue, loadAdminCatalogue, loadPagesCatalogue } from '../lib/i18n';
import { NotFoundPage } from './errors/NotFoundPage';
import { RouteErrorPage } from './errors/RouteErrorPage';
import type { RouteMeta } from './guards/route-meta';
import { AuthLayout } from './layouts/AuthLayout';
import { MinimalLayout } from './layouts/MinimalLayout';
import { RootRoute } from './RootRoute';

/**
 * Every route the spec lists, in one table. Public layouts ship with the entry (the
 * sign-in page must paint fast); every page and the signed-in shell are lazy chunks.
 */

/** A lazy route whose component is the named export `name` of the loaded module. */
function lazyPage<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] as ComponentType }) };
}

const meta = (value: RouteMeta): RouteMeta => value;

/**
 * The public pages' text (i18n `pages` part) loads with the page, in parallel with its code.
 * Only the first sign-in step and the error pages paint from the text the app ships with.
 */
const withPageText: Pick<RouteObject, 'loader'> = {
  loader: async () => {
    await loadPagesCatalogue();
    return null;
  },
};

/** Both guards run on every route change. */
export const rootMeta = meta({ middleware: ['maintenance', 'auth'] });
const preventToUser = meta({ preventToUser: true });
const requiresUser = meta({ requiresUser: true });

export function createRoutes(guardLoader: LoaderFunction): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootRoute,
      errorElement: <RouteErrorPage />,
      HydrateFallback: FullPageLoader,
      loader: guardLoader,
      // Guards must see every navigation, not only those that change this route's params.
      shouldRevalidate: () => true,
      handle: rootMeta,
      children: [
        {
          Component: AuthLayout,
          children: [
            {
              path: paths.login,
              children: [
                { index: true, handle: preventToUser, ...lazyPage(() => import('../features/auth/LoginPage'), 'LoginPage') },
                { path: paths.loginPassword, handle: preventToUser, ...withPageText, ...lazyPage(() => import('../features/auth/LoginPasswordPage'), 'LoginPasswordPage') },
                { path: paths.loginQuick, handle: preventToUser, ...withPageText, ...lazyPage(() => import('../features/auth/LoginQuickPage'), 'LoginQuickPage') },
                // An app's sign-in by code: a signed-out person reaches it as a sign-in page (and signs in from it), the signed-in person approves there.
                { path: paths.loginQuickApp, ...withPageText, ...lazyPage(() => import('../features/auth/LoginQuickAppPage'), 'LoginQuickAppPage') },
                { path: paths.loginSso, handle: preventToUser, ...withPageText, ...lazyPage(() => import('../features/auth/LoginSsoPage'), 'LoginSsoPage') },
              ],
            },
            {
              path: paths.register,
              handle: preventToUser,
              children: [
                { index: true, ...withPageText, ...lazyPage(() => import('../features/register/RegisterPage'), 'RegisterPage') },
                { path: paths.registerVerifyingEmail, ...withPageText, ...lazyPage(() => import('../features/register/VerifyingEmailPage'), 'VerifyingEmailPage') },
                { path: paths.registerWithId, ...withPageText, ...lazyPage(() => import('../features/register/RegisterWithIdPage'), 'RegisterWithIdPage') },
              ],
            },
            // The business trial makes its starter the owner of a company billed after the trial: signed in only (others sign in and come back).
            {
              path: paths.registerLockerEnterpriseTrial,
              handle: requiresUser,
              ...withPageText,
              ...lazyPage(() => import('../features/register/LockerEnterpriseTrialPage'), 'LockerEnterpriseTrialPage'),
            },
            {
              path: paths.registerLockerEnterpriseTrialSuccess,
              handle: requiresUser,
              ...withPageText,
              ...lazyPage(() => import('../features/register/LockerEnterpriseTrialSuccessPage'), 'LockerEnterpriseTrialSuccessPage'),
            },
            { path: paths.createUser, handle: preventToUser, ...withPageText, ...lazyPage(() => import('../features/register/CreateUserPage'), 'CreateUserPage') },
            { path: paths.forgot, handle: preventToUser, ...withPageText, ...lazyPage(() => import('../features/recovery/ForgotPage'), 'ForgotPage') },
            { path: paths.resetPassword, handle: preventToUser, ...withPageText, ...lazyPage(() => import('../features/recovery/ResetPasswordPage'), 'ResetPasswordPage') },
            // The OpenID Connect provider's pages need the person signed in (the guard sends anyone else to sign in and back).
            { path: paths.oauthAuthorize, handle: requiresUser, ...withPageText, ...lazyPage(() => import('../features/auth/OAuthAuthorizePage'), 'OAuthAuthorizePage') },
          ],
        },
        {
          Component: MinimalLayout,
          children: [
            { path: paths.loginExplore, ...withPageText, ...lazyPage(() => import('../features/explore/ExplorePage'), 'ExplorePage') },
            { path: paths.authenticate, handle: requiresUser, ...withPageText, ...lazyPage(() => import('../features/auth/AuthenticatePage'), 'AuthenticatePage') },
            { path: paths.callback, ...withPageText, ...lazyPage(() => import('../features/auth/CallbackPage'), 'CallbackPage') },
            { path: paths.callbackApp, ...withPageText, ...lazyPage(() => import('../features/auth/CallbackAppPage'), 'CallbackAppPage') },
            { path: paths.ssoRedirect, ...withPageText, ...lazyPage(() => import('../features/auth/SsoRedirectPage'), 'SsoRedirectPage') },
            { path: paths.confirmation, ...withPageText, ...lazyPage(() => import('../features/register/ConfirmationPage'), 'ConfirmationPage') },
            { path: paths.confirmationApp, ...withPageText, ...lazyPage(() => import('../features/register/AppConfirmationPage'), 'AppConfirmationPage') },
            {
              path: paths.confirmationEducationEmail,
              ...withPageText,
              ...lazyPage(() => import('../features/register/EducationEmailConfirmationPage'), 'EducationEmailConfirmationPage'),
            },
            { path: paths.confirmationInvitation, ...withPageText, ...lazyPage(() => import('../features/organizations/InvitationPage'), 'InvitationPage') },
            { path: paths.confirmationModerator, ...withPageText, ...lazyPage(() => import('../features/moderators/ModeratorInvitationPage'), 'ModeratorInvitationPage') },
            { path: paths.captcha, ...withPageText, ...lazyPage(() => import('../features/system/CaptchaPage'), 'CaptchaPage') },
            { path: paths.serverError, ...withPageText, ...lazyPage(() => import('../features/system/ServerErrorPage'), 'ServerErrorPage') },
            // A researcher's public profile: served signed in or not.
            { path: paths.researcher, ...withPageText, ...lazyPage(() => import('../features/payouts/ResearcherProfilePage'), 'ResearcherProfilePage') },
            // Never renders: the maintenance guard redirects it home.
            { path: paths.maintenance, Component: null },
            { path: '*', Component: NotFoundPage },
          ],
        },
        // The operators' console: its own lazy shell and text; its pages (features/admin/routes.tsx) route inside it.
        {
          path: `${paths.admin}/*`,
          handle: requiresUser,
          loader: async () => {
            await loadAdminCatalogue();
            return null;
          },
          ...lazyPage(() => import('../features/admin/AdminLayout'), 'AdminLayout'),
        },
        {
          path: paths.home,
          handle: requiresUser,
          // The account pages' text arrives with the shell, alongside its code.
          loader: async () => {
            await loadAccountCatalogue();
            return null;
          },
          ...lazyPage(() => import('./layouts/ShellLayout'), 'ShellLayout'),
          children: [
            { index: true, ...lazyPage(() => import('../features/home/HomePage'), 'HomePage') },
            { path: paths.account, ...lazyPage(() => import('../features/account/AccountPage'), 'AccountPage') },
            { path: paths.apiKeys, ...lazyPage(() => import('../features/api-keys/ApiKeysPage'), 'ApiKeysPage') },
            { path: paths.organizationAuditLog, ...lazyPage(() => import('../features/audit/AuditLogPage'), 'AuditLogPage') },
            { path: paths.organizationSso, ...lazyPage(() => import('../features/organizations/SsoSettingsPage'), 'SsoSettingsPage') },
            { path: paths.organizationSsoLink, ...lazyPage(() => import('../features/organizations/SsoLinkPage'), 'SsoLinkPage') },
            { path: paths.email, ...lazyPage(() => import('../features/email/EmailPage'), 'EmailPage') },
            { path: paths.privacy, ...lazyPage(() => import('../features/privacy/PrivacyPage'), 'PrivacyPage') },
            { path: paths.billing, ...lazyPage(() => import('../features/billing/BillingPage'), 'BillingPage') },
            // An account in no organization starts one there with the business trial's form, whose text is the public pages'.
            { path: paths.organization, ...withPageText, ...lazyPage(() => import('../features/organizations/OrganizationPage'), 'OrganizationPage') },
            { path: paths.wallet, ...lazyPage(() => import('../features/wallet/WalletPage'), 'WalletPage') },
            { path: paths.walletUsd, ...lazyPage(() => import('../features/wallet/UsdWalletPage'), 'UsdWalletPage') },
            { path: paths.walletVnd, ...lazyPage(() => import('../features/wallet/VndWalletPage'), 'VndWalletPage') },
            { path: paths.walletWhc, ...lazyPage(() => import('../features/wallet/WhcWalletPage'), 'WhcWalletPage') },
            { path: paths.walletPayout, ...lazyPage(() => import('../features/payouts/PayoutPage'), 'PayoutPage') },
            {
              path: paths.security,
              children: [
                { index: true, ...lazyPage(() => import('../features/security/SecurityPage'), 'SecurityPage') },
                { path: paths.securityDeviceActivity, ...lazyPage(() => import('../features/security/DeviceActivityPage'), 'DeviceActivityPage') },
                { path: paths.securityPassword, ...lazyPage(() => import('../features/security/PasswordPage'), 'PasswordPage') },
                { path: paths.securityTwoStep, ...lazyPage(() => import('../features/security/TwoStepVerificationPage'), 'TwoStepVerificationPage') },
                { path: paths.securityWebauthn, ...lazyPage(() => import('../features/security/PasskeysPage'), 'PasskeysPage') },
              ],
            },
          ],
        },
      ],
    },
  ];
}
