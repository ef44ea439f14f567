/**
 * The checks of the asset fields that asset creation and `buildGenesis` share: initial holders
 * of a fixed-cap asset, minter sets, and the denomination.
 */
import type { Args } from "../internal";
import type { JsonValue } from "../json";

/** An initial holder of a fixed-cap asset. */
export interface InitialHolder {
  readonly address: string;
  readonly amount: bigint;
}

/** `threshold` of `minters` together may mint. */
export interface MinterSet {
  readonly minters: readonly string[];
  readonly threshold: number;
}

/** `value` checked as a list of {@link MinterSet}, as sent. */
export function minterSetsParam(args: Args, value: unknown, field: string): JsonValue {
  if (!Array.isArray(value)) return args.type(field, "an array of { minters, threshold }", value);
  return (value as unknown[]).map((set, i) => {
    args.object(set, `${field}[${i}]`);
    const { minters, threshold } = set as { minters?: unknown; threshold?: unknown };
    return {
      minters: args.stringArray(minters, `${field}[${i}].minters`),
      threshold: args.integer(threshold, `${field}[${i}].threshold`, 0, 0xffff_ffff),
    };
  });
}

/** `value` checked as a list of {@link InitialHolder}, as sent (amounts as decimal strings). */
export function holdersParam(args: Args, value: unknown, field: string): JsonValue {
  if (!Array.isArray(value)) return args.type(field, "an array of { address, amount }", value);
  return (value as unknown[]).map((holder, i) => {
    args.object(holder, `${field}[${i}]`);
    const { address, amount } = holder as { address?: unknown; amount?: unknown };
    return {
      amount: args.uint64(amount, `${field}[${i}].amount`),
      address: args.string(address, `${field}[${i}].address`),
    };
  });
}

/** An optional denomination: decimal places shown, 0 to 255. */
export function denominationParam(args: Args, value: unknown): number | undefined {
  return args.optionalInteger(value, "denomination", 0, 255);
}
