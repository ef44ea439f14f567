/**
 * JSON text passed to an answer as it is: a list whose records the database wrote as JSON (the
 * transactions' documents) is answered without parsing them into objects and serialising them
 * again, which at a page of 100 records (250 KB) was most of the request's CPU. The text is kept
 * in parts (JsonText, rpc/json-text.ts), as the node keeps its large answers.
 */
import { JsonText } from "../../rpc/json-text";

export { JsonText, jsonArrayText } from "../../rpc/json-text";

/** `{"a":…,"b":…}` from keys and values, a JsonText value written as its parts, any other as JSON.stringify writes it. */
export function jsonObjectText(entries: readonly (readonly [key: string, value: unknown])[]): JsonText {
  const parts: string[] = [];
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    const name = `${parts.length === 0 ? "{" : ","}${JSON.stringify(key)}:`;
    if (value instanceof JsonText) parts.push(name, ...value.parts);
    else parts.push(name + JSON.stringify(value));
  }
  parts.push(parts.length === 0 ? "{}" : "}");
  return new JsonText(parts);
}
