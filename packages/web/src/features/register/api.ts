import { authEndpoints, type SignUpRequest } from '@portal/contracts';
import { call } from '../../lib/api';

/** The address the activation mail went to (the same answer for a known address). */
export const signUp = (body: SignUpRequest) => call(authEndpoints.signUp, { body }, { handle: [400, 429] });

/** With the mailed link's token. */
export const activate = (token: string) => call(authEndpoints.activate, { body: { token } }, { handle: [400, 404, 429] });
