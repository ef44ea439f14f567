/**
 * A result already written as JSON text, in parts: a large answer (ten thousand logs, 4 MB; a
 * page of 100 explorer records, 250 kB) built a part at a time and sent part by part, so that
 * neither writing it nor sending it holds the event loop in one piece or makes strings of
 * hundreds of kilobytes. V8 allocates a string over 128 kB apart from the young generation, in
 * pages of its own that only a full collection frees: one such string per answer made full
 * collections frequent under load. The framing puts the parts in the response as they are;
 * anything else that serializes it gets the same JSON through `toJSON`.
 */
export class JsonText {
  /** `parts` joined are the JSON text of one value. */
  constructor(readonly parts: readonly string[]) {}

  get text(): string {
    return this.parts.join("");
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** Characters of a part of {@link jsonArrayText} (but for one item longer by itself): well under 128 kB, and few parts to send. */
const PART_CHARS = 32_768;

/** The JSON array of `items`, each already a JSON text, in parts of about 32 kB. */
export function jsonArrayText(items: readonly string[]): JsonText {
  if (items.length === 0) return new JsonText(["[]"]);
  const parts: string[] = [];
  let first = 0;
  let chars = 0;
  for (let i = 0; i < items.length; i++) {
    chars += items[i]!.length + 1;
    if (chars < PART_CHARS && i < items.length - 1) continue;
    parts.push((first === 0 ? "[" : ",") + items.slice(first, i + 1).join(","));
    first = i + 1;
    chars = 0;
  }
  parts.push("]");
  return new JsonText(parts);
}
