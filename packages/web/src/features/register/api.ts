import type { ActivationResponse, SignUpRequest } from '@portal/contracts';
import { api } from '../../lib/api';

/** POST /sso/users: 201 with the address the activation mail went to (the same answer for a known address). */
export const signUp = (body: SignUpRequest) => api.post<{ email: string }>('/sso/users', body, { handle: [400, 429] });

/** POST /sso/users/activate with the mailed link's token. */
export const activate = (token: string) => api.post<ActivationResponse>('/sso/users/activate', { token }, { handle: [400, 404, 429] });
