/** The signed-in shell and its pages. (lib/i18n.ts loads the part; one file per capability.) */
import shell from '../shell.en.json';
import home from '../home.en.json';
import account from '../account.en.json';
import wallet from '../wallet.en.json';
import apiKeys from '../apiKeys.en.json';
import billing from '../billing.en.json';
import organizations from '../organizations.en.json';
import audit from '../audit.en.json';

export default [shell, home, account, wallet, apiKeys, billing, organizations, audit];
