/** The API's error codes. (lib/i18n.ts loads the part; one file per capability.) */
import errors from '../errors.vi.json';

export default [errors];
