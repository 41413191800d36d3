import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { sniffImageType } from '../../platform/square-image';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await identityClient(server.app, server.database).registeredUser('avatar@example.com');
});
afterAll(() => server.close());

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
function multipart(content: Buffer, filename: string, contentType: string, field = 'file') {
  const boundary = `----vitest${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  };
}

const upload = (content: Buffer, filename = 'me.png', contentType = 'image/png') =>
  server.app.inject({ method: 'PUT', url: '/v3/sso/me/avatar', ...multipart(content, filename, contentType) });

const me = async () => (await server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } })).json();

describe('avatar upload', () => {
  it('accepts a PNG, stores a 256x256 WebP and serves it from our origin', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366ff' } }).png().toBuffer();
    const response = await upload(png);
    expect(response.statusCode).toBe(200);
    const { avatar_url } = response.json();
    expect(avatar_url).toMatch(/^\/v3\/sso\/users\/[0-9a-f-]{36}\/avatar\?v=1$/);
    expect((await me()).avatar_url).toBe(avatar_url);

    const served = await server.app.inject({ url: avatar_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 });

    // Without the version the answer is revalidated; the ETag answers 304.
    const bare = await server.app.inject({ url: avatar_url.replace(/\?v=\d+$/, '') });
    expect(bare.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await server.app.inject({ url: avatar_url, headers: { 'if-none-match': String(bare.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('accepts JPEG and WebP and bumps the version each time', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ff0000' } }).jpeg().toBuffer();
    const webp = await sharp({ create: { width: 100, height: 400, channels: 4, background: '#00ff0080' } }).webp().toBuffer();
    expect((await upload(jpeg, 'me.jpg', 'image/jpeg')).json().avatar_url).toMatch(/\?v=2$/);
    const last = await upload(webp, 'me.webp', 'image/webp');
    expect(last.json().avatar_url).toMatch(/\?v=3$/);
    const served = await server.app.inject({ url: last.json().avatar_url });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 256, height: 256 });
  });

  it('refuses a text file named .png with a 400, never a 500', async () => {
    const response = await upload(Buffer.from('just some text, not a picture\n'.repeat(20)), 'fake.png', 'image/png');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('account.avatar_invalid');
    expect(response.json().message).toBe('Choose a PNG, JPEG or WebP image of at most 5 MB');
  });

  it('refuses an SVG and a truncated PNG', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    expect((await upload(svg, 'x.png', 'image/png')).json().code).toBe('account.avatar_invalid');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } }).png().toBuffer();
    const truncated = await upload(png.subarray(0, 40));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().code).toBe('account.avatar_invalid');
  });

  it('refuses a file over 5 MB with a 400', async () => {
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5 * 1024 * 1024 + 10)]);
    const response = await upload(big);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('account.avatar_invalid');
    expect(response.json().details.reason).toBe('size');
  });

  it('refuses a request that is not multipart, or has no file', async () => {
    const json = await server.app.inject({ method: 'PUT', url: '/v3/sso/me/avatar', headers: { authorization: `Bearer ${token}` }, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('account.avatar_invalid');
    const body = multipart(Buffer.from('x'), 'a.png', 'image/png');
    const anonymous = await server.app.inject({ method: 'PUT', url: '/v3/sso/me/avatar', payload: body.payload, headers: { 'content-type': body.headers['content-type'] } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('removes the picture; its URL then answers 404 and a new upload gets a new version', async () => {
    const url = (await me()).avatar_url as string;
    const removed = await server.app.inject({ method: 'DELETE', url: '/v3/sso/me/avatar', headers: { authorization: `Bearer ${token}` } });
    expect(removed.statusCode).toBe(204);
    expect((await me()).avatar_url).toBeNull();
    expect((await server.app.inject({ url })).statusCode).toBe(404);
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } }).png().toBuffer();
    expect((await upload(png)).json().avatar_url).toMatch(/\?v=4$/);
  });

  it('answers 404 for users without a picture and for ids that are not ids', async () => {
    expect((await server.app.inject({ url: '/v3/sso/users/00000000-0000-4000-8000-000000000000/avatar' })).statusCode).toBe(404);
    expect((await server.app.inject({ url: '/v3/sso/users/not-an-id/avatar' })).json()).toMatchObject({ code: 'not_found' });
  });
});

describe('sniffImageType', () => {
  it('tells types by their first bytes', () => {
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});
