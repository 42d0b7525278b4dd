import { escapeHtml } from "./escape-html";

// The HTML shell every mail shares: inline styles only (mail clients drop
// <style> and external sheets), no images, no scripts, no tracking; links are
// the console's own, written as they are. Every piece of text is escaped here
// or by the caller through `escapeHtml` — never raw.

const FONT = "font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#1f2328";

export type HtmlPart = { raw: string };

/** Text made safe for HTML once: pieces built with it are not escaped again. */
export const html = (text: string): HtmlPart => ({ raw: escapeHtml(text) });

export function paragraph(text: string): HtmlPart {
  return { raw: `<p style="margin:0 0 12px">${escapeHtml(text)}</p>` };
}

export function button(label: string, href: string): HtmlPart {
  return {
    raw:
      `<p style="margin:16px 0"><a href="${escapeHtml(href)}" style="display:inline-block;padding:8px 16px;` +
      `background:#0969da;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></p>`,
  };
}

export function facts(rows: [string, string][]): HtmlPart {
  const cells = rows
    .map(
      ([name, value]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;font-weight:600;vertical-align:top">${escapeHtml(name)}</th>` +
        `<td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  return { raw: `<table role="presentation" style="border-collapse:collapse;margin:0 0 12px">${cells}</table>` };
}

export function list(items: HtmlPart[]): HtmlPart {
  return {
    raw: `<ul style="margin:0 0 12px;padding-left:20px">${items.map((item) => `<li style="margin:0 0 8px">${item.raw}</li>`).join("")}</ul>`,
  };
}

export function link(label: string, href: string): HtmlPart {
  return { raw: `<a href="${escapeHtml(href)}" style="color:#0969da">${escapeHtml(label)}</a>` };
}

export const join = (...parts: HtmlPart[]): HtmlPart => ({ raw: parts.map((part) => part.raw).join("") });

/** The whole document; `footer` says why the reader gets it. */
export function mailDocument(title: string, body: HtmlPart[], footer: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#ffffff"><div style="${FONT};max-width:600px">` +
    body.map((part) => part.raw).join("") +
    `<p style="margin:24px 0 0;color:#59636e;font-size:12px">${escapeHtml(footer)}</p>` +
    `</div></body></html>`
  );
}
