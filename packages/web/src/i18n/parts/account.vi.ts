/** The signed-in shell and its pages. (lib/i18n.ts loads the part; one file per capability.) */
import shell from '../shell.vi.json';
import home from '../home.vi.json';
import account from '../account.vi.json';
import wallet from '../wallet.vi.json';
import apiKeys from '../apiKeys.vi.json';
import billing from '../billing.vi.json';
import organizations from '../organizations.vi.json';
import audit from '../audit.vi.json';

export default [shell, home, account, wallet, apiKeys, billing, organizations, audit];
