import sharp from 'sharp';

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

/** Why a picture was refused: not PNG, JPEG or WebP by its bytes, or not decodable. */
export class ImageRejected extends Error {
  override readonly name = 'ImageRejected';
  constructor(readonly reason: 'type' | 'unreadable') {
    super(reason === 'type' ? 'the image is not a PNG, JPEG or WebP file' : 'the image could not be read');
  }
}

export const SQUARE_IMAGE_CONTENT_TYPE = 'image/webp';

/**
 * PNG, JPEG or WebP in; a `size` x `size` WebP out (centre-cropped, turned upright by its EXIF
 * orientation, metadata stripped), so what we serve from our own origin is always an image we
 * made. Profile pictures and outside apps' logos.
 */
export async function squareWebp(input: Buffer, size: number): Promise<Buffer> {
  const sniffed = sniffImageType(input);
  if (!sniffed) throw new ImageRejected('type');
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const metadata = await image.metadata();
    if (metadata.format !== sniffed) throw new ImageRejected('type');
    return await image.rotate().resize(size, size, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    throw new ImageRejected('unreadable');
  }
}
