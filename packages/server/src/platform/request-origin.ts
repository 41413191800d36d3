import { LANG_COOKIE, isLanguage, type BrandId, type Language } from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { brandForHost } from './brand';

/** Who is asking and from where: what mail, sessions and limits need to know about a request. */
export interface RequestOrigin {
  brand: BrandId;
  lang: Language;
  ip: string;
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
    deviceId: request.deviceId,
    userAgent: request.headers['user-agent'],
  };
}
