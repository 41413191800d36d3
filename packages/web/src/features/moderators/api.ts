import { moderatorEndpoints } from '@portal/contracts';
import { call } from '../../lib/api';

/** The moderator invitation link before anyone signs in (failures are the result screen's message). */
export const previewModeratorInvitation = (token: string) => call(moderatorEndpoints.preview, { body: { token } }, { handle: 'all' });
/** Accepting: refusals (expired, withdrawn, used, another person's) are the result screen's message. */
export const acceptModeratorInvitation = (token: string) => call(moderatorEndpoints.accept, { body: { token } }, { handle: [400, 403, 404, 409, 410] });
