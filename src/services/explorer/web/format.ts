/**
 * Values as a person reads them: amounts in an asset's denomination, times in UTC, memos as
 * text when they are text, chain IDs by their alias. Pure functions of the records.
 */
import type { ExplorerContext } from "../context";
import { aliasOfChain } from "../context";

/** An asset as the pages need it to show amounts: how many decimals, which symbol. */
export interface AssetUnit {
  denomination: number;
  symbol: string;
}

/**
 * `units` (a decimal string or bigint in the smallest unit) shown with `denomination` decimals,
 * digits grouped by thousands with a thin space, trailing zero decimals dropped beyond two:
 * 123450 with denomination 2 → "1 234.50". An amount that is not a whole number is shown as given.
 */
export function formatUnits(units: string | bigint, denomination: number): string {
  let value: bigint;
  try {
    value = typeof units === "bigint" ? units : BigInt(units);
  } catch {
    return String(units);
  }
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  const scale = 10n ** BigInt(Math.max(0, Math.trunc(denomination)));
  const whole = (magnitude / scale).toString().replace(/\B(?=(\d{3})+$)/g, "\u2009");
  if (scale === 1n) return `${sign}${whole}`;
  let fraction = (magnitude % scale).toString().padStart(String(scale).length - 1, "0");
  while (fraction.length > 2 && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return `${sign}${whole}.${fraction}`;
}

/** An amount with its asset's symbol, or in raw units when the asset is unknown. */
export function formatAmount(units: string | bigint, unit: AssetUnit | undefined): string {
  if (unit === undefined) return `${formatUnits(units, 0)} units`;
  const amount = formatUnits(units, unit.denomination);
  return unit.symbol === "" ? amount : `${amount} ${unit.symbol}`;
}

/** An RFC 3339 time (or Unix seconds) as "2026-11-24 00:45:12 UTC"; what cannot be read is shown as given. */
export function formatTime(time: string | number): string {
  const date = typeof time === "number" || /^\d+$/.test(time) ? new Date(Number(time) * 1000) : new Date(time);
  if (Number.isNaN(date.getTime())) return String(time);
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The first and last characters of a long ID, for tables; the full ID stays in the link and its title. */
export function shortId(id: string, keep = 10): string {
  return id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-keep / 2)}`;
}

/** A memo (base64, as the records carry it): its text when it is printable UTF-8, else its hex; undefined when empty. */
export function decodeMemo(base64: string): { text: string; printable: boolean } | undefined {
  if (base64 === "") return undefined;
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length === 0) return undefined;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const printable = !text.includes("\uFFFD") && !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text);
  return printable ? { text, printable } : { text: `0x${bytes.toString("hex")}`, printable };
}

/** "X", "P", "C" for the network's chains, else the chain ID itself. */
export function chainName(context: ExplorerContext, chainId: string): string {
  return aliasOfChain(context, chainId) ?? chainId;
}

const CHAIN_TITLES: Record<string, string> = { X: "Exchange chain (X)", P: "Platform chain (P)", C: "Contract chain (C)" };

export function chainTitle(context: ExplorerContext, chainId: string): string {
  const alias = aliasOfChain(context, chainId);
  return alias === undefined ? `chain ${chainId}` : CHAIN_TITLES[alias]!;
}

/** A wei amount of the contract chain's native coin (18 decimals) for people. */
export function formatWei(wei: string | bigint): string {
  return formatUnits(wei, 18);
}

/** A hex quantity ("0x1a") or decimal string as a decimal string. */
export function quantity(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  try {
    return BigInt(value).toString();
  } catch {
    return value;
  }
}
