/**
 * A result already written as JSON text: a large answer (ten thousand logs) built a slice at a
 * time, so that turning it into the response's text does not hold the event loop in one piece.
 * The framing puts the text in the response as it is; anything else that serializes it gets the
 * same JSON through `toJSON`.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
