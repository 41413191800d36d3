import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { logoutFormTargets } from './logout-targets';
import { OIDC_ROUTES } from './oidc-routes';
import { simplePage } from './pages';

type Features = NonNullable<Configuration['features']>;

function sendPage(ctx: KoaContextWithOIDC, page: { html: string; csp: string }): void {
  ctx.set('content-security-policy', page.csp);
  ctx.type = 'html';
  ctx.body = page.html;
}

/** RP-initiated logout's pages: the confirmation, and the one after. */
export const logoutPages: Pick<NonNullable<Features['rpInitiatedLogout']>, 'logoutSource' | 'postLogoutSuccessSource'> = {
  async logoutSource(ctx, form) {
    const page = simplePage(
      'Sign out?',
      'Do you want to sign out of your account on this browser?',
      `${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button><button type="submit" form="op.logoutForm">No, stay signed in</button>`,
      { formTargets: logoutFormTargets(ctx) },
    );
    sendPage(ctx, page);
  },
  async postLogoutSuccessSource(ctx) {
    sendPage(ctx, simplePage('Signed out', 'You have signed out.'));
  },
};

/** The device flow's pages: our page asks for the code (the provider's own page is not served). */
export const devicePages: Pick<NonNullable<Features['deviceFlow']>, 'userCodeInputSource' | 'successSource'> = {
  async userCodeInputSource(ctx) {
    ctx.redirect(OIDC_ROUTES.code_verification);
  },
  async successSource(ctx) {
    sendPage(ctx, simplePage('Signed in', 'The app is signed in. You can close this page.'));
  },
};

/** The provider's error page for a browser. */
export const renderError: NonNullable<Configuration['renderError']> = async (ctx, out) => {
  sendPage(
    ctx,
    simplePage(
      'This request cannot be completed',
      out.error === 'invalid_client' || out.error === 'invalid_redirect_uri'
        ? 'The app that sent you here is not registered for this address. Nothing was shared with it.'
        : `The app's request is not valid (${out.error}). Nothing was shared with it.`,
    ),
  );
};
