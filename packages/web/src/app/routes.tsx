import type { RouteObject } from 'react-router';
import { paths } from '@portal/contracts';
import { loadAccountCatalogue, loadAdminCatalogue, loadPagesCatalogue } from '../lib/i18n';
import type { RouteMeta } from './guards/route-meta';
import { AuthLayout } from './layouts/AuthLayout';
import { MinimalLayout } from './layouts/MinimalLayout';
import { lazyPage } from './lazy-page';

/**
 * Every route the spec lists, in one table. Public layouts ship with the entry (the
 * sign-in page must paint fast); every page and the signed-in shell are lazy chunks.
 */

const meta = (value: RouteMeta): RouteMeta => value;

/**
 * The public pages' text (i18n `pages` part) loads with the page, in parallel with its code.
 * Only the first sign-in step and the error pages paint from the text the app ships with.
 */
const text = loadPagesCatalogue;

/** Both guards run on every route change. */
export const rootMeta = meta({ middleware: ['maintenance', 'auth'] });
const preventToUser = meta({ preventToUser: true });
const requiresUser = meta({ requiresUser: true });

export function createRoutes(): RouteObject[] {
  return [
    {
      // The root of the table, shown by RootRoute, which resolves every navigation (guards, page code) first.
      handle: rootMeta,
      children: [
        {
          element: <AuthLayout />,
          children: [
            {
              path: paths.login,
              children: [
                { index: true, ...lazyPage(() => import('../features/auth/LoginPage'), 'LoginPage', { meta: preventToUser }) },
                { path: paths.loginPassword, ...lazyPage(() => import('../features/auth/LoginPasswordPage'), 'LoginPasswordPage', { meta: preventToUser, text }) },
                { path: paths.loginQuick, ...lazyPage(() => import('../features/auth/LoginQuickPage'), 'LoginQuickPage', { meta: preventToUser, text }) },
                // An app's sign-in by code: a signed-out person reaches it as a sign-in page (and signs in from it), the signed-in person approves there.
                { path: paths.loginQuickApp, ...lazyPage(() => import('../features/auth/LoginQuickAppPage'), 'LoginQuickAppPage', { text }) },
                { path: paths.loginSso, ...lazyPage(() => import('../features/auth/LoginSsoPage'), 'LoginSsoPage', { meta: preventToUser, text }) },
              ],
            },
            {
              path: paths.register,
              handle: preventToUser,
              children: [
                { index: true, ...lazyPage(() => import('../features/auth/register/RegisterPage'), 'RegisterPage', { text }) },
                { path: paths.registerVerifyingEmail, ...lazyPage(() => import('../features/auth/register/VerifyingEmailPage'), 'VerifyingEmailPage', { text }) },
                { path: paths.registerWithId, ...lazyPage(() => import('../features/auth/register/RegisterWithIdPage'), 'RegisterWithIdPage', { text }) },
              ],
            },
            // The business trial makes its starter the owner of a company billed after the trial: signed in only (others sign in and come back).
            {
              path: paths.registerLockerEnterpriseTrial,
              ...lazyPage(() => import('../features/auth/register/LockerEnterpriseTrialPage'), 'LockerEnterpriseTrialPage', { meta: requiresUser, text }),
            },
            {
              path: paths.registerLockerEnterpriseTrialSuccess,
              ...lazyPage(() => import('../features/auth/register/LockerEnterpriseTrialSuccessPage'), 'LockerEnterpriseTrialSuccessPage', { meta: requiresUser, text }),
            },
            { path: paths.createUser, ...lazyPage(() => import('../features/auth/register/CreateUserPage'), 'CreateUserPage', { meta: preventToUser, text }) },
            { path: paths.forgot, ...lazyPage(() => import('../features/auth/recovery/ForgotPage'), 'ForgotPage', { meta: preventToUser, text }) },
            { path: paths.resetPassword, ...lazyPage(() => import('../features/auth/recovery/ResetPasswordPage'), 'ResetPasswordPage', { meta: preventToUser, text }) },
            // The OpenID Connect provider's pages need the person signed in (the guard sends anyone else to sign in and back).
            { path: paths.oauthAuthorize, ...lazyPage(() => import('../features/auth/OAuthAuthorizePage'), 'OAuthAuthorizePage', { meta: requiresUser, text }) },
          ],
        },
        {
          element: <MinimalLayout />,
          children: [
            { path: paths.loginExplore, ...lazyPage(() => import('../features/explore/ExplorePage'), 'ExplorePage', { text }) },
            { path: paths.authenticate, ...lazyPage(() => import('../features/auth/AuthenticatePage'), 'AuthenticatePage', { meta: requiresUser, text }) },
            { path: paths.callback, ...lazyPage(() => import('../features/auth/CallbackPage'), 'CallbackPage', { text }) },
            { path: paths.callbackApp, ...lazyPage(() => import('../features/auth/CallbackAppPage'), 'CallbackAppPage', { text }) },
            { path: paths.ssoRedirect, ...lazyPage(() => import('../features/auth/SsoRedirectPage'), 'SsoRedirectPage', { text }) },
            { path: paths.confirmation, ...lazyPage(() => import('../features/auth/register/ConfirmationPage'), 'ConfirmationPage', { text }) },
            { path: paths.confirmationApp, ...lazyPage(() => import('../features/auth/register/AppConfirmationPage'), 'AppConfirmationPage', { text }) },
            {
              path: paths.confirmationEducationEmail,
              ...lazyPage(() => import('../features/auth/register/EducationEmailConfirmationPage'), 'EducationEmailConfirmationPage', { text }),
            },
            { path: paths.confirmationInvitation, ...lazyPage(() => import('../features/organizations/InvitationPage'), 'InvitationPage', { text }) },
            { path: paths.confirmationModerator, ...lazyPage(() => import('../features/moderators/ModeratorInvitationPage'), 'ModeratorInvitationPage', { text }) },
            { path: paths.captcha, ...lazyPage(() => import('../features/system/CaptchaPage'), 'CaptchaPage', { text }) },
            { path: paths.serverError, ...lazyPage(() => import('../features/system/ServerErrorPage'), 'ServerErrorPage', { text }) },
            // A researcher's public profile: served signed in or not.
            { path: paths.researcher, ...lazyPage(() => import('../features/wallet/payouts/ResearcherProfilePage'), 'ResearcherProfilePage', { text }) },
            // Never renders: the maintenance guard redirects it home.
            { path: paths.maintenance, element: null },
            { path: '*', ...lazyPage(() => import('./errors/NotFoundPage'), 'NotFoundPage') },
          ],
        },
        // The operators' console: its own lazy shell and text; its pages (features/admin/routes.tsx) route inside it.
        {
          path: `${paths.admin}/*`,
          ...lazyPage(() => import('../features/admin/AdminLayout'), 'AdminLayout', { meta: requiresUser, text: loadAdminCatalogue }),
        },
        {
          path: paths.home,
          // The account pages' text arrives with the shell, alongside its code.
          ...lazyPage(() => import('./layouts/ShellLayout'), 'ShellLayout', { meta: requiresUser, text: loadAccountCatalogue }),
          children: [
            { index: true, ...lazyPage(() => import('../features/home/HomePage'), 'HomePage') },
            { path: paths.account, ...lazyPage(() => import('../features/account/AccountPage'), 'AccountPage') },
            { path: paths.apiKeys, ...lazyPage(() => import('../features/api-keys/ApiKeysPage'), 'ApiKeysPage') },
            { path: paths.organizationAuditLog, ...lazyPage(() => import('../features/audit/AuditLogPage'), 'AuditLogPage') },
            { path: paths.organizationSso, ...lazyPage(() => import('../features/organizations/SsoSettingsPage'), 'SsoSettingsPage') },
            { path: paths.organizationSsoLink, ...lazyPage(() => import('../features/organizations/SsoLinkPage'), 'SsoLinkPage') },
            { path: paths.email, ...lazyPage(() => import('../features/account/email/EmailPage'), 'EmailPage') },
            { path: paths.privacy, ...lazyPage(() => import('../features/account/privacy/PrivacyPage'), 'PrivacyPage') },
            { path: paths.billing, ...lazyPage(() => import('../features/billing/BillingPage'), 'BillingPage') },
            // An account in no organization starts one there with the business trial's form, whose text is the public pages'.
            { path: paths.organization, ...lazyPage(() => import('../features/organizations/OrganizationPage'), 'OrganizationPage', { text }) },
            { path: paths.wallet, ...lazyPage(() => import('../features/wallet/WalletPage'), 'WalletPage') },
            { path: paths.walletUsd, ...lazyPage(() => import('../features/wallet/UsdWalletPage'), 'UsdWalletPage') },
            { path: paths.walletVnd, ...lazyPage(() => import('../features/wallet/VndWalletPage'), 'VndWalletPage') },
            { path: paths.walletWhc, ...lazyPage(() => import('../features/wallet/WhcWalletPage'), 'WhcWalletPage') },
            { path: paths.walletPayout, ...lazyPage(() => import('../features/wallet/payouts/PayoutPage'), 'PayoutPage') },
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
