/** Security, second factors and passkeys: the security pages, their dialogs, passkey and email-code sign-in. (lib/i18n.ts loads the part; one file per capability.) */
import security from '../security.vi.json';
import mfa from '../mfa.vi.json';
import passkeys from '../passkeys.vi.json';
import emailCode from '../auth.emailCode.vi.json';

export default [security, mfa, passkeys, emailCode];
