import { setTimeout as sleep } from 'node:timers/promises';

const STEP_SECONDS = 30;
/** Room a test needs between making a code and the server checking it, under a loaded CI machine. */
const ROOM_SECONDS = 10;

/**
 * Seconds since the epoch at least ROOM_SECONDS before the end of the current 30-second TOTP
 * step (waiting into the next one when the current is nearly over), for tests that verify on the
 * wall clock: a code made just before a step turned would be checked one step later and, when it
 * is a previous step's code, refused.
 */
export async function roomyTotpEpoch(): Promise<number> {
  const intoStep = (Date.now() / 1000) % STEP_SECONDS;
  if (intoStep > STEP_SECONDS - ROOM_SECONDS) await sleep((STEP_SECONDS - intoStep + 0.1) * 1000);
  return Math.floor(Date.now() / 1000);
}
