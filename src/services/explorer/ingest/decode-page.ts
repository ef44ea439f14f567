/**
 * A page of an index's containers decoded into rows, with what the page needs from the node
 * besides: the genesis transactions of the exchange chain that its transactions spend (they
 * are in no index), and the contract chain's atomic exports its imports spend (the contract
 * chain's blocks carry them only as `extData`, which not every node puts in the indexed bytes).
 *
 * A container that cannot be decoded (an unknown transaction type) is kept raw, with the
 * reason; a node that cannot be reached fails the whole page, to be retried.
 */
import type { IndexContainer } from "../../../clients";
import { NodeClientError } from "../../../clients";
import { encodeCb58 } from "../../../encoding";
import { decodeUtxo, TypeId } from "../../../utxo/codec";
import type { SqlQueries } from "../../sql/database";
import type { ExplorerContext } from "../context";
import { decodeAtomicTx } from "./atomic-tx";
import { decodeContractBlock } from "./contract-block";
import { decodeSelfContained } from "./decode-container";
import type { DecodeThreads } from "./decode-threads";
import { decodeExchangeTx } from "./exchange-tx";
import type { ExplorerIndexName, NodeSource } from "./node-source";
import { hexOf, millisOf, outputRow } from "./outputs";
import type { DecodedContainer, OutputRow, TransactionRow } from "./rows";

/** The empty ID (32 zero bytes): the transaction ID of the platform chain's genesis UTXOs. */
const EMPTY_ID = encodeCb58(new Uint8Array(32));
const CONTRACT_BLOCKS_AT_ONCE = 16;
/** Smaller pages (a node being followed live) are decoded on the ingest thread: sending them costs more than it saves. */
const THREADED_PAGE_MIN = 64;

export interface DecodedPage {
  containers: DecodedContainer[];
  /** Transactions from outside the index the page's transactions spend. */
  extra: TransactionRow[];
}

export class PageDecoder {
  /** Transaction IDs the node was asked about and does not know (asked once). */
  private readonly unknownToNode = new Set<string>();
  /**
   * The transactions of each index's page decoded last. The ingester reads a page while it
   * stores the one before, whose transactions are not in the database yet but will be before
   * this page is stored (pages are stored in order): they are not asked of the node.
   */
  private readonly previousPage = new Map<ExplorerIndexName, Set<string>>();
  /** Platform-chain addresses whose genesis UTXOs were looked for. */
  private readonly genesisAddressesRead = new Set<string>();

  constructor(
    private readonly context: ExplorerContext,
    private readonly node: NodeSource,
    private readonly db: SqlQueries,
    /** Threads to decode large pages of the exchange and platform chains on (else all on this thread). */
    private readonly threads?: DecodeThreads,
  ) {}

  async decode(name: ExplorerIndexName, page: readonly IndexContainer[]): Promise<DecodedPage> {
    let containers: DecodedContainer[];
    if (name === "C-block") {
      // Contract-chain blocks wait on the node (block and receipts): several are asked at once.
      containers = [];
      for (let i = 0; i < page.length; i += CONTRACT_BLOCKS_AT_ONCE) {
        containers.push(...(await Promise.all(page.slice(i, i + CONTRACT_BLOCKS_AT_ONCE).map((c) => this.decodeContractContainer(c)))));
      }
    } else {
      const threaded = page.length >= THREADED_PAGE_MIN ? this.threads?.decode(this.context, name, page) : undefined;
      containers = (await threaded) ?? page.map((c) => decodeSelfContained(this.context, name, c));
    }
    const transactions = containers.flatMap((c) => c.transactions);
    const extra = await this.missingSources(transactions, this.previousPage.get(name));
    if (name === "P-block" && transactions.length > 0) {
      const genesis = await this.platformGenesis(transactions, containers[0]!.acceptedAt);
      if (genesis !== undefined) extra.push(genesis);
    }
    this.previousPage.set(name, new Set([...transactions, ...extra].map((t) => t.id)));
    return { containers, extra };
  }

  private async decodeContractContainer(container: IndexContainer): Promise<DecodedContainer> {
    const acceptedAt = millisOf(container.timestamp);
    const decoded: DecodedContainer = { index: container.index, id: container.id, bytes: hexOf(container.bytes), acceptedAt, transactions: [] };
    try {
      const { block, atomicTransactions } = await decodeContractBlock(this.context, this.node, container.bytes, acceptedAt);
      decoded.cBlock = block;
      decoded.transactions.push(...atomicTransactions);
    } catch (error) {
      if (error instanceof NodeClientError) throw error;
      decoded.problem = error instanceof Error ? error.message : String(error);
    }
    return decoded;
  }

  /** The transactions spent by `txs` that neither they nor the database hold, fetched from the node. */
  private async missingSources(txs: readonly TransactionRow[], previousPage: ReadonlySet<string> = new Set()): Promise<TransactionRow[]> {
    const inPage = new Set(txs.map((t) => t.id));
    const wanted = new Map<string, { from: "X" | "C"; acceptedAt: number }>();
    for (const tx of txs) {
      const from = tx.sourceChainId === this.context.chains.C ? "C" : tx.chainId === this.context.chains.X && tx.sourceChainId === null ? "X" : undefined;
      if (from === undefined) continue;
      for (const input of tx.inputs) {
        if (!inPage.has(input.transactionId) && !previousPage.has(input.transactionId) && !this.unknownToNode.has(input.transactionId)) wanted.set(input.transactionId, { from, acceptedAt: tx.acceptedAt });
      }
    }
    if (wanted.size === 0) return [];
    const known = await this.db.query("SELECT id FROM transactions WHERE id = ANY($1::text[])", [`{${[...wanted.keys()].join(",")}}`]);
    for (const row of known) wanted.delete(String(row.id));
    const found: TransactionRow[] = [];
    for (const [id, { from, acceptedAt }] of wanted) {
      const row = from === "X" ? await this.genesisTx(id, acceptedAt) : await this.atomicExport(id, acceptedAt);
      if (row === undefined) this.unknownToNode.add(id);
      else found.push(row);
    }
    return found;
  }

  /**
   * The platform chain's genesis outputs the page's transactions touch. Its genesis is no
   * transaction the node serves (its UTXOs carry the empty ID as their transaction), so the
   * outputs are read two ways: those spent here from the inputs that spend them (amount,
   * asset; owned by the input's signers), and those still unspent from the node's UTXO set of
   * each address the page's transactions name. All belong to one row: the genesis, `genesis`.
   */
  private async platformGenesis(txs: readonly TransactionRow[], acceptedAt: number): Promise<TransactionRow | undefined> {
    const chainId = this.context.chains.P;
    const outputs = new Map<string, OutputRow>();
    for (const tx of txs) {
      if (tx.chainId !== chainId) continue;
      for (const input of tx.inputs) {
        if (input.transactionId !== EMPTY_ID) continue;
        const signers = tx.credentials.filter((c) => c.inputPosition === input.position).map((c) => c.address);
        outputs.set(input.outputId, {
          id: input.outputId,
          transactionId: EMPTY_ID,
          outputIndex: input.outputIndex,
          chainId,
          createdOnChainId: chainId,
          assetId: input.assetId,
          outputType: TypeId.Secp256k1TransferOutput,
          amount: input.amount,
          locktime: 0n,
          threshold: signers.length,
          groupId: 0,
          payload: null,
          stake: false,
          addresses: signers,
        });
      }
    }
    const addresses = new Set(txs.filter((t) => t.chainId === chainId).flatMap((t) => [...t.credentials.map((c) => c.address), ...t.outputs.flatMap((o) => o.addresses)]));
    for (const address of addresses) {
      if (this.genesisAddressesRead.has(address)) continue;
      this.genesisAddressesRead.add(address);
      for (const bytes of await this.node.platformUtxos(`P-${address}`)) {
        const utxo = decodeUtxo(bytes);
        if (encodeCb58(utxo.txId) !== EMPTY_ID) continue;
        const row = outputRow(this.context, { txId: utxo.txId, outputIndex: utxo.outputIndex, chainId, createdOnChainId: chainId }, utxo.assetId, utxo.output);
        outputs.set(row.id, row);
      }
    }
    if (outputs.size === 0) return undefined;
    return {
      id: EMPTY_ID,
      chainId,
      type: "genesis",
      memo: "",
      txFee: 0n,
      genesis: true,
      acceptedAt,
      blockId: null,
      sourceChainId: null,
      destinationChainId: null,
      bytes: "",
      inputs: [],
      outputs: [...outputs.values()],
      credentials: [],
      assets: [],
    };
  }

  /**
   * An exchange-chain transaction outside the index: a genesis transaction. Its time is not
   * known; the time of the first transaction seen spending it stands for it.
   */
  async genesisTx(id: string, acceptedAt: number): Promise<TransactionRow | undefined> {
    const bytes = await this.node.exchangeTx(id);
    return bytes === undefined ? undefined : decodeExchangeTx(this.context, bytes, acceptedAt, true);
  }

  /** A contract-chain export an import spends, with its block (the time of the import when the block is unknown). */
  private async atomicExport(id: string, acceptedAt: number): Promise<TransactionRow | undefined> {
    const answer = await this.node.atomicTx(id);
    if (answer === undefined) return undefined;
    let blockId: string | null = null;
    let time = acceptedAt;
    if (answer.blockHeight !== undefined) {
      const stored = await this.db.query("SELECT hash, accepted_at::text AS accepted_at FROM c_blocks WHERE number = $1", [answer.blockHeight.toString()]);
      if (stored.length > 0) {
        blockId = String(stored[0]!.hash);
        time = Number(stored[0]!.accepted_at);
      } else {
        const block = await this.node.contractBlock(answer.blockHeight);
        if (block !== null && typeof block.hash === "string") blockId = block.hash.toLowerCase();
        if (block !== null && typeof block.timestamp === "string") time = Number(BigInt(block.timestamp)) * 1000;
      }
    }
    try {
      return decodeAtomicTx(this.context, answer.bytes, time, blockId);
    } catch {
      return undefined;
    }
  }
}
