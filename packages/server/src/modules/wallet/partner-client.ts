import type { Clock } from '../../platform/clock';
import { egressFetch, type EgressPolicy } from '../../platform/egress';
import { signBankNotification as sign } from './deposits';

/** How long one request to the partner may take. */
const PARTNER_TIMEOUT_MS = 10_000;

/**
 * What the partner said of a transfer, as far as money is concerned:
 * - `accepted`: it has the transfer and will deliver it (its callback settles it);
 * - `delivered`: the recipient has the money;
 * - `refused`: definitively not delivered: the only answer that lets the money go back;
 * - `unknown`: it never received the transfer id (sending it again is safe);
 * - `unclear`: no answer, or one that says nothing of the transfer (a timeout, a 5xx, a 409 for
 *   a duplicate id, a 4xx to a resend); `askStatus` when asking by id can tell.
 */
export type PartnerAnswer =
  | { kind: 'accepted'; reference: string | null }
  | { kind: 'delivered'; reference: string | null }
  | { kind: 'refused'; reason: string | null }
  | { kind: 'unknown' }
  | { kind: 'unclear'; detail: string; askStatus: boolean };

/** The transfer as the partner's API takes it. */
export interface PartnerTransferRequest {
  transfer_id: string;
  recipient: string;
  currency: string;
  amount_minor: string;
  note: string | null;
  created_at: string;
}

const shortError = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);
const referenceOf = (value: unknown) => (typeof value === 'string' && /^[\x21-\x7e]{1,100}$/.test(value) ? value : null);
const reasonOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : null);

async function jsonOf(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => null);
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/**
 * The partner exchange's transfer API, each request signed with `x-portal-signature` (the bank
 * notifications' scheme: HMAC-SHA256 of "<t>.<raw body>"; for a status, of "<t>.<transfer_id>")
 * and sent through the egress guard (the partner's URL is configuration, checked after
 * resolution like every URL someone sets):
 * - `POST <url>/transfers`: the partner applies a `transfer_id` once;
 * - `GET <url>/transfers/<transfer_id>`: `{status: "pending" | "completed" | "rejected", reference?,
 *   reason?}`, or 404 when it never received that id.
 */
export function createPartnerClient(deps: { url: string; secret: string; clock: Clock; egress: EgressPolicy }) {
  const { url, secret, clock } = deps;
  const egress: EgressPolicy = { ...deps.egress, timeoutMs: PARTNER_TIMEOUT_MS };

  return {
    /**
     * Sends a transfer. 2xx: accepted. A 4xx other than 408, 409 and 429 to the first send of
     * the id: refused (the partner never had it and will not take it). Any other 4xx (a 409 for
     * a duplicate id, a refusal of a resend whose first answer was lost) says nothing of the
     * transfer: unclear, to be asked by id. No answer, 408, 429, 5xx: unclear, sent again later.
     */
    async send(transfer: PartnerTransferRequest, firstSend: boolean): Promise<PartnerAnswer> {
      const body = JSON.stringify(transfer);
      let response: Response;
      try {
        response = await egressFetch(`${url}/transfers`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-portal-signature': sign(secret, body, clock.now()) }, body }, egress);
      } catch (error) {
        return { kind: 'unclear', detail: shortError(error), askStatus: false };
      }
      const answer = await jsonOf(response);
      const status = response.status;
      if (status >= 200 && status < 300) return { kind: 'accepted', reference: referenceOf(answer.reference) };
      const clientError = status >= 400 && status < 500 && status !== 408 && status !== 429;
      if (clientError && status !== 409 && firstSend) return { kind: 'refused', reason: reasonOf(answer.reason) };
      return { kind: 'unclear', detail: `HTTP ${status}`, askStatus: clientError };
    },

    /** Asks the partner what became of a transfer id. */
    async status(transferId: string): Promise<PartnerAnswer> {
      let response: Response;
      try {
        response = await egressFetch(`${url}/transfers/${encodeURIComponent(transferId)}`, { method: 'GET', headers: { 'x-portal-signature': sign(secret, transferId, clock.now()) } }, egress);
      } catch (error) {
        return { kind: 'unclear', detail: `status: ${shortError(error)}`, askStatus: false };
      }
      const answer = await jsonOf(response);
      if (response.status === 404) return { kind: 'unknown' };
      if (response.status !== 200) return { kind: 'unclear', detail: `status: HTTP ${response.status}`, askStatus: false };
      if (answer.status === 'completed') return { kind: 'delivered', reference: referenceOf(answer.reference) };
      if (answer.status === 'pending') return { kind: 'accepted', reference: referenceOf(answer.reference) };
      if (answer.status === 'rejected') return { kind: 'refused', reason: reasonOf(answer.reason) };
      return { kind: 'unclear', detail: 'status: an answer without a known status', askStatus: false };
    },
  };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;
