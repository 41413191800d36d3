/** The public pages beyond the first sign-in step: sign-in steps, sign-up, recovery, results, the researcher profile. (lib/i18n.ts loads the part; one file per capability.) */
import auth from '../auth.en.json';
import explore from '../explore.en.json';
import system from '../system.en.json';
import appPages from '../app.pages.en.json';
import researcher from '../wallet.payouts.researcher.en.json';

export default [auth, explore, system, appPages, researcher];
