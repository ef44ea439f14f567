/**
 * The pages' one way to build HTML: the `html` tagged template escapes every interpolated value
 * unless it is already `Html` (built by this template), so text from the chain (a memo, an asset
 * name, a log's data) can only ever appear as text. Nothing else in web/ concatenates markup
 * with data.
 */

/** Markup that is safe to insert as it is (it came from `html` or a constant of ours). */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What may be interpolated: markup, text (escaped), numbers, lists of those; nothing shown for empty values. */
export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` with the five characters that mean something in HTML (in content and in quoted attributes) escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) markup += render(values[i] as HtmlValue) + strings[i + 1]!;
  return new Html(markup);
}
