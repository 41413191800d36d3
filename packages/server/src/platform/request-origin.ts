import { LANG_COOKIE, isLanguage, type BrandId, type Language } from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { brandForHost } from './brand';
import { limitAddress } from './client-address';

/** Who is asking and from where: what mail, sessions and limits need to know about a request. */
export interface RequestOrigin {
  brand: BrandId;
  lang: Language;
  /** The client's address as seen (through the trusted proxies): for records and display. */
  ip: string;
  /** What every per-address limit counts against (an IPv6 client's /64): see `limitAddress`. */
  limitAddress: string;
  deviceId: string;
  userAgent?: string;
}

export function requestOrigin(request: FastifyRequest, config: Config): RequestOrigin {
  const cookieLang = request.cookies[LANG_COOKIE];
  const accept = request.headers['accept-language']?.toLowerCase() ?? '';
  return {
    brand: brandForHost(config, request.hostname).id,
    lang: isLanguage(cookieLang) ? cookieLang : accept.startsWith('vi') ? 'vi' : 'en',
    ip: request.ip,
    limitAddress: limitAddress(request.ip),
    deviceId: request.deviceId,
    userAgent: request.headers['user-agent'],
  };
}
