import sharp from 'sharp';
import { AppError } from '../../platform/errors';

/** The stored picture: a square WebP of this many pixels a side. */
export const AVATAR_SIZE = 256;
export const AVATAR_CONTENT_TYPE = 'image/webp';
/** Decompression bombs: a 5 MB PNG can claim billions of pixels; refuse beyond this. */
const MAX_INPUT_PIXELS = 40_000_000;

type Accepted = 'png' | 'jpeg' | 'webp';

/** The real type by the file's first bytes (its name and declared type are the sender's word). */
export function sniffImageType(bytes: Buffer): Accepted | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

export function avatarInvalid(reason: string): AppError {
  return new AppError('account.avatar_invalid', {}, { reason });
}

/**
 * PNG, JPEG or WebP in; a 256x256 WebP out (centre-cropped, turned upright by its EXIF
 * orientation, metadata stripped). Anything else, or a file the decoder cannot read, is a 400.
 */
export async function processAvatar(input: Buffer): Promise<Buffer> {
  const sniffed = sniffImageType(input);
  if (!sniffed) throw avatarInvalid('type');
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const metadata = await image.metadata();
    if (metadata.format !== sniffed) throw avatarInvalid('type');
    return await image.rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw avatarInvalid('unreadable');
  }
}
