/**
 * JSON text passed to an answer as it is: a list whose records the database wrote as JSON (the
 * transactions' documents) is answered without parsing them into objects and serialising them
 * again, which at a page of 100 records (250 KB) was most of the request's CPU.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `{"a":…,"b":…}` from keys and values, a JsonText value written as its text, any other as JSON.stringify writes it. */
export function jsonObjectText(entries: readonly (readonly [key: string, value: unknown])[]): JsonText {
  const members = entries.filter(([, value]) => value !== undefined).map(([key, value]) => `${JSON.stringify(key)}:${value instanceof JsonText ? value.text : JSON.stringify(value)}`);
  return new JsonText(`{${members.join(",")}}`);
}
