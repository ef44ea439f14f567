/**
 * The pages' questions answered by the explorer's reader (../reader): each page question is one
 * or a few reader calls with the list parameters filled in (the whole history, newest first).
 */
import type { ExplorerReader } from "../reader";
import type { PagesReader } from "./reader";

const SEARCH_LIMIT = 50;
/** More than the chains an address can be on. */
const CHAINS_LIMIT = 100;

export function pagesReaderOf(reader: ExplorerReader): PagesReader {
  const allTime = () => ({ startTime: 0, endTime: Date.now() });
  return {
    transaction: (id) => reader.transaction(id),
    latestTransactions: async ({ chainId, address, limit, cursor }) => {
      const page = await reader.transactions({
        ...allTime(),
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        chainIds: chainId === undefined ? [] : [chainId],
        addresses: address === undefined ? [] : [address],
        sort: "timestamp-desc",
      });
      return { items: page.items, ...(page.next === undefined ? {} : { cursor: page.next }) };
    },
    // The list answers one record per chain the address was seen on, as the page shows them.
    address: async (address) => (await reader.addresses({ ...allTime(), limit: CHAINS_LIMIT, chainIds: [], addresses: [address] })).items,
    asset: (id) => reader.asset(id),
    assets: async (limit) => (await reader.assets({ ...allTime(), limit, chainIds: [] })).items,
    // The running totals over all chains, largest balance first: an indexed read of the asset's holders.
    holders: (assetId, limit) => reader.assetHolders(assetId, limit),
    cBlock: (height) => reader.cBlock(Number(height)),
    latestCBlocks: (limit) => reader.cBlocks({ blockLimit: limit, transactionLimit: limit, addresses: [] }),
    cTransaction: (hash) => reader.cTransaction(hash),
    cTransactionsOf: async (address, limit) => (await reader.cTransactions({ ...allTime(), limit, address })).items,
    search: (query) => reader.search(query, SEARCH_LIMIT),
    aggregates: ({ intervalSize, startTime, endTime, assetId }) =>
      reader.aggregates({ chainIds: [], intervalSize, startTime: startTime.getTime(), endTime: endTime.getTime(), ...(assetId === undefined ? {} : { assetId }) }),
  };
}
