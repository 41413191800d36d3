import { AppError } from '../../platform/errors';
import { ImageRejected, SQUARE_IMAGE_CONTENT_TYPE, squareWebp } from '../../platform/square-image';

/** The stored picture: a square WebP of this many pixels a side. */
export const AVATAR_SIZE = 256;
export const AVATAR_CONTENT_TYPE = SQUARE_IMAGE_CONTENT_TYPE;

export function avatarInvalid(reason: string): AppError {
  return new AppError('account.avatar_invalid', {}, { reason });
}

/**
 * PNG, JPEG or WebP in; a 256x256 WebP out (platform/square-image.ts). Anything else, or a
 * file the decoder cannot read, is a 400.
 */
export async function processAvatar(input: Buffer): Promise<Buffer> {
  try {
    return await squareWebp(input, AVATAR_SIZE);
  } catch (error) {
    if (error instanceof ImageRejected) throw avatarInvalid(error.reason);
    throw error;
  }
}
