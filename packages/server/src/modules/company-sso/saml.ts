import { X509Certificate } from 'node:crypto';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { Clock } from '../../platform/clock';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What an IdP's metadata says: its entity id, its redirect-binding SSO URL and its signing certificates (PEM). */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
}

const pem = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

/** Parses IdP metadata XML; a string says what is wrong with it. */
export function parseIdpMetadata(xml: string): IdpMetadata | string {
  if (!xml.trim() || xml.length > 1_000_000) return 'empty or too large';
  if (/<!DOCTYPE/i.test(xml)) return 'a DOCTYPE is not accepted';
  let problem: string | null = null;
  const document = new DOMParser({ errorHandler: (level: string, message: unknown) => void (level !== 'warning' && (problem ??= String(message))) }).parseFromString(xml, 'text/xml');
  if (problem || !document?.documentElement) return `not well-formed XML (${problem ?? 'no root element'})`;
  const entity = document.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const entityId = entity?.getAttribute('entityID')?.trim();
  if (!entity || !entityId) return 'no EntityDescriptor with an entityID';
  const idp = entity.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!idp) return 'no IDPSSODescriptor';
  const services = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'));
  const ssoUrl = services.find((service) => service.getAttribute('Binding') === REDIRECT_BINDING)?.getAttribute('Location')?.trim();
  if (!ssoUrl) return 'no SingleSignOnService with the HTTP-Redirect binding';
  try {
    const url = new URL(ssoUrl);
    if (url.protocol !== 'https:' && !/^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname)) return 'the SingleSignOnService Location must be https';
  } catch {
    return 'the SingleSignOnService Location is not a URL';
  }
  const certificates: string[] = [];
  for (const descriptor of Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))) {
    const use = descriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const node of Array.from(descriptor.getElementsByTagNameNS(DS, 'X509Certificate'))) {
      const base64 = (node.textContent ?? '').replace(/\s+/g, '');
      try {
        new X509Certificate(Buffer.from(base64, 'base64'));
      } catch {
        return 'a signing certificate is not a valid X.509 certificate';
      }
      certificates.push(pem(base64));
    }
  }
  if (certificates.length === 0) return 'no signing certificate (KeyDescriptor use="signing")';
  return { entityId, ssoUrl, certificates };
}

/** A SAML response refused: the message says why (for the log, never for the page). */
export class SamlRefusal extends Error {
  override readonly name = 'SamlRefusal';
}

/** Who a validated response says signed in, and the request it answers. */
export interface SamlIdentity {
  subject: string;
  email: string | null;
  name: string;
  inResponseTo: string;
}

/** Small: IdPs and our clock may disagree a little, never by minutes. */
const CLOCK_SKEW_MS = 60_000;
const REQUEST_TTL_MS = 10 * 60 * 1000;

const attribute = (profile: Profile, ...names: string[]): string | null => {
  for (const name of names) {
    const value = profile[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return null;
};

/**
 * The service provider side of one organization's SAML connection (@node-saml/node-saml): the
 * AuthnRequest (redirect binding) and the validation of the POSTed response. Signed assertions
 * are required, the audience is our entity id, the response must answer a live request of ours
 * (InResponseTo), the subject confirmation's Recipient must be our ACS, and the assertion's
 * times are checked with a one-minute skew.
 */
export function createSamlServiceProvider(settings: { entityId: string; acsUrl: string; idpEntityId: string; idpSsoUrl: string; idpCertificates: string[]; clock: Clock }) {
  const saml = (requestId: string | null, issuedAt: (id: string) => Promise<Date | null>) =>
    new SAML({
      callbackUrl: settings.acsUrl,
      entryPoint: settings.idpSsoUrl,
      issuer: settings.entityId,
      audience: settings.entityId,
      idpCert: settings.idpCertificates,
      idpIssuer: settings.idpEntityId,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: REQUEST_TTL_MS,
      disableRequestedAuthnContext: true,
      identifierFormat: null,
      generateUniqueId: () => requestId ?? '_unused',
      // Requests live in our database (stored before the redirect, used up once after validation).
      cacheProvider: {
        saveAsync: async (_key, value) => ({ value, createdAt: settings.clock.now().getTime() }),
        // node-saml reads the value as the request's creation time.
        getAsync: async (key) => (await issuedAt(key))?.toISOString() ?? null,
        removeAsync: async () => null,
      },
    });

  return {
    /** The IdP's URL with our AuthnRequest (id `requestId`, stored by the caller). */
    async authorizeUrl(requestId: string): Promise<string> {
      return saml(requestId, async () => null).getAuthorizeUrlAsync('', undefined, {});
    },

    /** `issuedAt` answers when a live request of ours was made (null: none, used or expired). */
    async validate(samlResponse: string, issuedAt: (requestId: string) => Promise<Date | null>): Promise<SamlIdentity> {
      if (!samlResponse) throw new SamlRefusal('no SAMLResponse');
      let profile: Profile | null;
      try {
        ({ profile } = await saml(null, issuedAt).validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (error) {
        throw new SamlRefusal(error instanceof Error ? error.message : String(error));
      }
      if (!profile?.nameID) throw new SamlRefusal('no NameID');
      const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : null;
      if (!inResponseTo) throw new SamlRefusal('no InResponseTo');
      const assertion = profile.getAssertion?.() as { Assertion?: { Subject?: Array<{ SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: { Recipient?: string } }> }> }> } } | undefined;
      const recipients = (assertion?.Assertion?.Subject?.[0]?.SubjectConfirmation ?? []).map((confirmation) => confirmation.SubjectConfirmationData?.[0]?.$?.Recipient);
      if (recipients.length === 0 || recipients.some((recipient) => recipient !== settings.acsUrl)) throw new SamlRefusal('Recipient is not our ACS');
      const email = attribute(profile, 'email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') ?? (profile.nameID.includes('@') ? profile.nameID : null);
      const name =
        attribute(profile, 'name', 'displayName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name') ??
        [attribute(profile, 'givenName', 'firstName'), attribute(profile, 'sn', 'surname', 'lastName')].filter(Boolean).join(' ');
      return { subject: profile.nameID, email: email?.toLowerCase() ?? null, name, inResponseTo };
    },
  };
}
