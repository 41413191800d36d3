import type { SessionRow } from './queries';

/** A session as its owner's own lists show it (device activity, the personal-data export): the device it was made on, from where, and when. */
export function sessionDeviceDto(row: Pick<SessionRow, 'id' | 'browser' | 'device' | 'ip' | 'location' | 'createdAt' | 'lastActiveAt'>) {
  return {
    id: row.id,
    browser: row.browser,
    device: row.device,
    ip: row.ip,
    location: row.location,
    created_at: row.createdAt.toISOString(),
    last_active_at: row.lastActiveAt.toISOString(),
  };
}
