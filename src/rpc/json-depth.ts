/**
 * The nesting depth of a JSON text, measured without parsing it.
 *
 * `JSON.parse` builds every array and object it meets: a body of millions of `[` makes millions
 * of nested arrays, which takes seconds on the event loop and hundreds of megabytes before any
 * check on the parsed value could run. This scan reads each character once, keeps one counter
 * and allocates nothing, so a transport can refuse such a body before parsing it.
 */

/**
 * The deepest nesting of arrays and objects in `text`: 0 for a scalar, 1 for `[]` or `{}`, 2 for
 * `[[]]`, and so on. Brackets and braces inside strings do not count (a backslash escapes the
 * character after it, so `"\""` is one string). The scan stops as soon as the depth exceeds
 * `stopAbove` and returns that depth, so a hostile body costs no more than the limit needs.
 *
 * The text is not validated: for malformed JSON the result is only a bound that the parser,
 * which runs next, makes irrelevant by refusing the text anyway.
 */
export function jsonNestingDepth(text: string, stopAbove: number = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      // Malformed input may close more than it opened; never go below the top level.
      if (depth > 0) depth--;
    }
  }
  return deepest;
}

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
