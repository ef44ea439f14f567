/**
 * The `timestamp` of an index container as the reference node writes it: Go's `time.Time` JSON,
 * RFC 3339 with up to nine fractional digits (trailing zeros dropped, no dot when there is no
 * fraction) in the node's local time zone, "Z" when that is UTC:
 * "2024-05-02T14:03:07.123456789+02:00".
 */
export function formatNodeTimestamp(unixNanos: bigint, offsetMinutes: number = localOffsetMinutes(unixNanos)): string {
  const seconds = floorDiv(unixNanos, 1_000_000_000n);
  const nanos = unixNanos - seconds * 1_000_000_000n;
  const local = new Date(Number(seconds) * 1000 + offsetMinutes * 60_000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const fraction = nanos === 0n ? "" : `.${nanos.toString().padStart(9, "0").replace(/0+$/, "")}`;
  return `${date}T${time}${fraction}${formatOffset(offsetMinutes)}`;
}

/** The local time zone's offset from UTC at that instant, in minutes (east positive). */
function localOffsetMinutes(unixNanos: bigint): number {
  return -new Date(Number(unixNanos / 1_000_000n)).getTimezoneOffset();
}

function formatOffset(minutes: number): string {
  if (minutes === 0) return "Z";
  const sign = minutes > 0 ? "+" : "-";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}
