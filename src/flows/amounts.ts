/**
 * Asset amounts for people. The chains count an asset in its smallest unit; its denomination
 * says how many of the digits are decimals (GOLD with denomination 2 shows 60000000 units as
 * 600 000.00). Every amount a flow or script prints goes through here, so they read alike.
 */

/**
 * `units` of an asset with `denomination` decimals, thousands grouped with spaces, and its
 * symbol: "600 000.00 GOLD", "0.01 AVAX", "12 USDX". Decimals beyond the second are shown only
 * when they are not zero.
 */
export function formatAssetAmount(units: bigint, denomination: number, symbol: string): string {
  if (!Number.isInteger(denomination) || denomination < 0 || denomination > 255) {
    throw new RangeError(`denomination must be an integer from 0 to 255, got ${denomination}`);
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(denomination + 1, "0");
  const whole = digits.slice(0, digits.length - denomination).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  const keep = Math.min(2, denomination);
  const decimals = digits.slice(digits.length - denomination).replace(new RegExp(`(?<=.{${keep}})0+$`), "");
  const number = `${negative ? "-" : ""}${whole}${decimals === "" ? "" : `.${decimals}`}`;
  return symbol === "" ? number : `${number} ${symbol}`;
}
