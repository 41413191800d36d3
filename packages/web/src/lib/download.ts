import { ApiError, apiUrl } from './api';
import { currentDeviceId } from './device-id';

/** Saves `blob` as a file through the browser's download; the object URL is freed `keepMs` later. */
export function saveDownload(blob: Blob, fileName: string, keepMs: number): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), keepMs);
}

/**
 * Downloads a CSV export of the API (`path` with the filters' query) with the session cookie,
 * named as the server names it (else `fallbackName`). A refusal throws its status as an ApiError
 * (its message names the export: `what`).
 */
export async function downloadCsv(path: string, query: Record<string, string>, fallbackName: string, what: string): Promise<void> {
  const deviceId = currentDeviceId();
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${apiUrl(path)}${search ? `?${search}` : ''}`, {
    credentials: 'include',
    headers: deviceId ? { 'device-id': deviceId } : {},
  });
  if (!response.ok) throw new ApiError({ status: response.status, code: `http_${response.status}`, message: `${what} export ${response.status}` });
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveDownload(await response.blob(), fileName, 10_000);
}
