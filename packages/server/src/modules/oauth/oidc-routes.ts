/** Paths of the provider's endpoints. The authorization endpoint is the spec's `/o/authorize`. */
export const OIDC_ROUTES = {
  authorization: '/o/authorize',
  token: '/oidc/token',
  jwks: '/oidc/jwks',
  userinfo: '/oidc/userinfo',
  introspection: '/oidc/token/introspection',
  revocation: '/oidc/token/revocation',
  end_session: '/oidc/session/end',
  device_authorization: '/oidc/device/auth',
  // The device flow's verification_uri: our own page (the provider's is never routed to it).
  code_verification: '/login/quick-app',
  registration: '/oidc/reg',
  pushed_authorization_request: '/oidc/request',
  backchannel_authentication: '/oidc/backchannel',
  challenge: '/oidc/challenge',
  credential: '/oidc/credential',
} as const;

export const INTERACTION_PATH = '/o/interaction';
