/** The operators' console. (lib/i18n.ts loads the part; one file per capability.) */
import admin from '../admin.vi.json';

export default [admin];
