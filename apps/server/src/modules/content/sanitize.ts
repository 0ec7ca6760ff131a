/**
 * Article bodies (image_text) are HTML written in the console and shown on the bettor site: the server
 * keeps only an allow-list of tags and attributes (sanitize-html), so no script, style, frame, form, event
 * handler or javascript:/data: address survives. Links may be https, mailto or in-app (`/...`); pictures
 * only our uploads or https. Links that open a new window get rel="noopener noreferrer".
 */
import type sanitizeHtml from 'sanitize-html';
import { onFirstUse } from '../../platform/lazy.js';

const sanitizer = onFirstUse<typeof sanitizeHtml>('sanitize-html');
import { isImageRef } from '@dau/contract';

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'blockquote', 'code', 'pre',
  'ul', 'ol', 'li', 'a', 'img', 'figure', 'figcaption', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div',
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Elements whose content is code, not text: dropped with their content.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'math'],
  transformTags: {
    a: (tagName, attribs) => {
      const out: Record<string, string> = { ...attribs };
      if (out.target && out.target !== '_blank' && out.target !== '_self') delete out.target;
      if (out.target === '_blank') out.rel = 'noopener noreferrer';
      else delete out.rel;
      return { tagName, attribs: out };
    },
  },
  // A picture must be one of our uploads or an https address; any other <img> is dropped.
  exclusiveFilter: (frame) => frame.tag === 'img' && !isImageRef(frame.attribs.src ?? ''),
};

/** The body as it is stored: allow-listed HTML only. */
export function sanitizeArticle(html: string): string {
  return sanitizer()(html, OPTIONS).trim();
}
