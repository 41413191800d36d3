/** The first paint: the app-wide words (layouts, forms, validation, HTTP statuses) and the first sign-in step. (lib/i18n.ts loads the part; one file per capability.) */
import app from '../app.vi.json';
import authLogin from '../auth.login.vi.json';

export default [app, authLogin];
