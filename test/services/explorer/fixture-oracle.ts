/**
 * What the explorer should answer about the table fixtures, computed from their declarations
 * with bigint arithmetic (never from the database), so the tests check the SQL against an
 * independent account.
 */
import { FIXTURE_CONTEXT, FIXTURE_OUTPUTS, FIXTURE_TRANSACTIONS, type FixtureOutput, type Person } from "./fixture-rows";

export const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

export function ownedBy(person: Person, filter: (o: FixtureOutput) => boolean = () => true): FixtureOutput[] {
  return FIXTURE_OUTPUTS.filter((o) => o.owners.includes(person) && filter(o));
}

export function balanceOf(person: Person, asset: string): bigint {
  return sum(ownedBy(person, (o) => o.asset === asset && o.redeemedBy === undefined).map((o) => o.amount));
}

/** IDs of the transactions that touched the person (owner of an output, or signer). */
export function transactionsOf(person: Person): string[] {
  return FIXTURE_TRANSACTIONS.filter((t) => t.outputs.some((o) => o.owners.includes(person)) || t.inputs.some((i) => i.signer === person)).map((t) => t.id);
}

export function chainIdOf(alias: "X" | "P" | "C"): string {
  return FIXTURE_CONTEXT.chains[alias];
}

/** Fixture transactions in the API's default order (time, then insertion). */
export const ORDERED_TRANSACTION_IDS: readonly string[] = FIXTURE_TRANSACTIONS.map((t) => t.id);
