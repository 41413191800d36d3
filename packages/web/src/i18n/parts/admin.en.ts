/** The operators' console. (lib/i18n.ts loads the part; one file per capability.) */
import admin from '../admin.en.json';

export default [admin];
