/**
 * What every ingest test checks after the explorer caught up: each index's stored containers are
 * exactly the node's, from 0 to its last accepted, once each, and the progress says so.
 */
import { expect } from "chai";
import { NodeApiError } from "../../../src/clients";
import { EXPLORER_INDEXES, type ExplorerIndexName, type ExplorerService } from "../../../src/services/explorer";
import type { FundedNode } from "./helpers";

export async function expectIndexedAsTheNode(explorer: ExplorerService, node: FundedNode): Promise<void> {
  for (const index of Object.keys(EXPLORER_INDEXES) as ExplorerIndexName[]) {
    let last = -1n;
    try {
      last = (await explorer.node.index(index).getLastAccepted()).index;
    } catch (error) {
      if (!(error instanceof NodeApiError)) throw error;
    }
    const [stored] = await explorer.database.query(
      "SELECT count(*)::int AS n, count(DISTINCT container_index)::int AS distinct_n, coalesce(max(container_index), -1)::text AS max FROM explorer_containers WHERE index_name = $1",
      [index],
    );
    expect(stored, `${index} of ${node.url}`).to.deep.equal({ n: Number(last + 1n), distinct_n: Number(last + 1n), max: last.toString() });
    const [progress] = await explorer.database.query("SELECT next_index::text AS next FROM explorer_progress WHERE index_name = $1", [index]);
    expect(progress?.next ?? "0", index).to.equal((last + 1n).toString());
  }
}
