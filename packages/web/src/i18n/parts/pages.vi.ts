/** The public pages beyond the first sign-in step: sign-in steps, sign-up, recovery, results, the researcher profile. (lib/i18n.ts loads the part; one file per capability.) */
import auth from '../auth.vi.json';
import explore from '../explore.vi.json';
import system from '../system.vi.json';
import appPages from '../app.pages.vi.json';
import researcher from '../wallet.payouts.researcher.vi.json';

export default [auth, explore, system, appPages, researcher];
