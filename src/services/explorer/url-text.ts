/**
 * The text of the explorer's URLs, read strictly. The WHATWG URL parser and URLSearchParams let
 * malformed percent-encoding through (`%zz` stays as typed, the cut-short UTF-8 of `%E0%A4%A`
 * becomes U+FFFD), and `decodeURIComponent` throws a bare URIError, which the pages reported as
 * their database not answering (503) and the API as an unknown path (404). Here a malformed
 * escape, in a path segment or in a query parameter's name or value, is input the explorer cannot
 * read: a {@link MalformedUrlError} whose message says which part and what is wrong, which the
 * API answers 400 `{code, message}` and the pages with a 400 page. So is a NUL character (`%00`):
 * no ID, address or name holds one, and PostgreSQL refuses it in text.
 */

export class MalformedUrlError extends Error {
  override readonly name = "MalformedUrlError";
}

/** A `%` that does not start an escape (two hex digits). */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * `text` decoded; `what` names it, as typed, for the message (`the path segment "%zz"`); in a
 * query, `plusIsSpace` reads `+` as a space.
 */
export function decodeUrlText(text: string, what: string, plusIsSpace = false): string {
  const stray = STRAY_PERCENT.exec(text);
  if (stray !== null) {
    throw new MalformedUrlError(`${what} is not valid percent-encoding: the % of ${JSON.stringify(text.slice(stray.index, stray.index + 3))} is not followed by two hex digits (a % itself is written %25)`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(plusIsSpace ? text.replace(/\+/g, " ") : text);
  } catch {
    throw new MalformedUrlError(`${what} is not valid percent-encoding: its escaped bytes are not UTF-8 text`);
  }
  if (decoded.includes("\u0000")) throw new MalformedUrlError(`${what} holds a NUL character (%00), which nothing the explorer looks up contains`);
  return decoded;
}

/** The segments of a path (empty ones dropped), each decoded. */
export function decodePathSegments(path: string): string[] {
  return path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => decodeUrlText(segment, `the path segment ${JSON.stringify(segment)}`));
}

/**
 * Checks the query string of a request target (`/path?a=1&b=2`; `+` stands for a space): every
 * parameter's name and value must be well-formed. Throws {@link MalformedUrlError}.
 */
export function checkQueryText(target: string | undefined): void {
  const start = target?.indexOf("?") ?? -1;
  if (target === undefined || start === -1) return;
  const end = target.indexOf("#", start);
  const query = target.slice(start + 1, end === -1 ? undefined : end);
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = equals === -1 ? pair : pair.slice(0, equals);
    decodeUrlText(name, `the query parameter name ${JSON.stringify(name)}`, true);
    if (equals !== -1) decodeUrlText(pair.slice(equals + 1), `the query parameter ${pair}`, true);
  }
}
