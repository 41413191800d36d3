import { brands, type BrandId } from '@portal/contracts';
import { assertAbsoluteUrl, escapeHtml } from './html';

/** The pieces a mail is made of; each renders both as plain text and as HTML. */
export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'code'; code: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'link'; label: string; url: string }
  | { kind: 'note'; text: string };

export interface MailContent {
  subject: string;
  /** Shown by mail clients next to the subject; also the first line of the text part. */
  heading: string;
  blocks: Block[];
  signOff: string;
  footer: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function textOf(block: Block): string {
  switch (block.kind) {
    case 'p':
    case 'note':
      return block.text;
    case 'code':
      return `    ${block.code}`;
    case 'button':
    case 'link':
      return `${block.label}: ${block.url}`;
  }
}

function htmlOf(block: Block, colour: string): string {
  switch (block.kind) {
    case 'p':
      return `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2937">${escapeHtml(block.text)}</p>`;
    case 'note':
      return `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#6b7280">${escapeHtml(block.text)}</p>`;
    case 'code':
      return (
        `<p style="margin:0 0 16px;font-family:Consolas,Menlo,monospace;font-size:30px;font-weight:700;` +
        `letter-spacing:8px;color:#111827">${escapeHtml(block.code)}</p>`
      );
    case 'button':
      return (
        `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 24px;` +
        `border-radius:6px;background:${colour};color:#ffffff;font-size:15px;font-weight:600;text-decoration:none">` +
        `${escapeHtml(block.label)}</a></p>` +
        // The bare URL too: some clients strip buttons, and users like to see where a link goes.
        `<p style="margin:0 0 16px;font-size:12px;line-height:1.5;color:#6b7280;word-break:break-all">${escapeHtml(block.url)}</p>`
      );
    case 'link':
      return (
        `<p style="margin:0 0 16px;font-size:15px;line-height:1.5"><a href="${escapeHtml(block.url)}" ` +
        `style="color:${colour}">${escapeHtml(block.label)}</a></p>`
      );
  }
}

/**
 * One layout for every mail: the brand name in its colour, the heading, the blocks, the
 * sign-off and a footer. Inline styles only (mail clients drop <style> and classes), no images
 * (blocked by default in most clients), every interpolated value escaped.
 */
export function renderLayout(content: MailContent, brandId: BrandId, lang: string): RenderedMail {
  const brand = brands[brandId];
  for (const block of content.blocks) if (block.kind === 'button' || block.kind === 'link') assertAbsoluteUrl(block.url);

  const text = [content.heading, '', ...content.blocks.flatMap((block) => [textOf(block), '']), content.signOff, '', '--', content.footer, '']
    .join('\n');

  const body = content.blocks.map((block) => htmlOf(block, brand.themeColor)).join('\n');
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border-top:4px solid ${brand.themeColor}">
<tr><td style="padding:24px 32px 0;font-size:18px;font-weight:700;color:${brand.themeColor}">${escapeHtml(brand.title)}</td></tr>
<tr><td style="padding:16px 32px 8px">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:#111827">${escapeHtml(content.heading)}</h1>
${body}
<p style="margin:0 0 8px;font-size:15px;line-height:1.5;color:#1f2937">${escapeHtml(content.signOff)}</p>
</td></tr>
<tr><td style="padding:16px 32px 24px;font-size:12px;line-height:1.5;color:#9ca3af;border-top:1px solid #e5e7eb">${escapeHtml(content.footer)}</td></tr>
</table>
</td></tr></table>
</body>
</html>
`;
  return { subject: content.subject, text, html };
}
