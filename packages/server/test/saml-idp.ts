import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
/** Test-only key pairs (self-signed, made with openssl for these tests): the IdP's, and a stranger's. */
const KEYS = { idp: { key: fixture('saml-idp.key'), cert: fixture('saml-idp.crt') }, stranger: { key: fixture('saml-stranger.key'), cert: fixture('saml-stranger.crt') } };
const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export interface AssertionOptions {
  requestId: string;
  acsUrl: string;
  audience: string;
  nameId: string;
  email?: string;
  name?: string;
  /** Minutes from now the assertion stops being valid (negative: expired). */
  validMinutes?: number;
  /** Who signs the assertion: the IdP (default), a stranger's key, or nobody. */
  signer?: 'idp' | 'stranger' | 'none';
  recipient?: string;
  issuer?: string;
}

/**
 * A SAML 2.0 identity provider for tests: its metadata (entity id, redirect-binding SSO URL,
 * signing certificate) and responses whose assertions it signs for real with xml-crypto
 * (RSA-SHA256, exclusive c14n), as an IdP's page would POST them to the ACS.
 */
export function samlIdp(entityId = 'https://idp.acme.test/saml', ssoUrl = 'https://idp.acme.test/sso') {
  return {
    entityId,
    ssoUrl,
    metadata: `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${bare(KEYS.idp.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`,

    /** The AuthnRequest a start URL carries (redirect binding: deflated, base64). */
    readRequest(url: string): { id: string; acsUrl: string; issuer: string; xml: string } {
      const xml = inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
      return {
        id: /ID="([^"]+)"/.exec(xml)?.[1] ?? '',
        acsUrl: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? '',
        issuer: />([^<]+)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
        xml,
      };
    },

    /** A base64 SAMLResponse as the IdP's page posts it. */
    response(options: AssertionOptions): string {
      const now = new Date();
      const until = new Date(now.getTime() + (options.validMinutes ?? 5) * 60_000).toISOString();
      const before = new Date(now.getTime() - 60_000).toISOString();
      const issuer = options.issuer ?? entityId;
      const assertionId = `_a${randomUUID().replace(/-/g, '')}`;
      const attributes = [
        options.email ? `<saml:Attribute Name="email"><saml:AttributeValue>${escape(options.email)}</saml:AttributeValue></saml:Attribute>` : '',
        options.name ? `<saml:Attribute Name="name"><saml:AttributeValue>${escape(options.name)}</saml:AttributeValue></saml:Attribute>` : '',
      ].join('');
      const assertion =
        `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${now.toISOString()}">` +
        `<saml:Issuer>${escape(issuer)}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${escape(options.nameId)}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${options.requestId}" NotOnOrAfter="${until}" Recipient="${escape(options.recipient ?? options.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${before}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
        (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
        `</saml:Assertion>`;
      const response =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replace(/-/g, '')}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${escape(options.acsUrl)}" InResponseTo="${options.requestId}">` +
        `<saml:Issuer>${escape(issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
      const signer = options.signer ?? 'idp';
      if (signer === 'none') return Buffer.from(response).toString('base64');
      const keys = KEYS[signer];
      const signature = new SignedXml({
        privateKey: keys.key,
        publicCert: keys.cert,
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      });
      signature.addReference({
        xpath: "//*[local-name(.)='Assertion']",
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
        transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      });
      signature.computeSignature(response, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
      return Buffer.from(signature.getSignedXml()).toString('base64');
    },
  };
}
