/** Security, second factors and passkeys: the security pages, their dialogs, passkey and email-code sign-in. (lib/i18n.ts loads the part; one file per capability.) */
import security from '../security.en.json';
import mfa from '../mfa.en.json';
import passkeys from '../passkeys.en.json';
import emailCode from '../auth.emailCode.en.json';

export default [security, mfa, passkeys, emailCode];
