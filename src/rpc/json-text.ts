/**
 * A result already written as JSON text, in parts: a large answer (ten thousand logs, 4 MB)
 * built a slice at a time and sent part by part, so that neither writing it nor sending it holds
 * the event loop in one piece or makes megabyte-sized strings, whose collection stops the whole
 * process. The framing puts the parts in the response as they are; anything else that
 * serializes it gets the same JSON through `toJSON`.
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
