/**
 * The executions gas statistics count (Hardhat 3's `--gas-stats`), recorded while a chain has a
 * recorder: each transaction of a mined block and each eth_call — what Hardhat's own network
 * (EDR) measures; gas estimates are not. Only the top level is measured, and only executions
 * that succeed (Hardhat counts no failed ones). A report holds the code and data that name the
 * contract and function; naming them is the reader's business (it has the build's artifacts).
 *
 * A call through proxies is reported with the chain of codes it was forwarded through, found
 * as EDR finds it: a frame forwards to a DELEGATECALL child made with the same selector that
 * returned the same data.
 */
import type { EVMResult, Message } from "@ethereumjs/evm";
import type { AfterTxEvent } from "@ethereumjs/vm";

export type ExecutionReport =
  | {
      kind: "call";
      /** The call data. */
      input: Uint8Array;
      /** The code that ran at the called address (empty for an account without code, or a precompile). */
      code: Uint8Array;
      /** Through proxies: the codes the call went through, the called one first, the implementation last; else empty. */
      proxyChain: Uint8Array[];
      /** The transaction's gas used (the receipt's, for a mined one). */
      gasUsed: bigint;
    }
  | {
      kind: "create";
      /** The creation code with the constructor's arguments after it. */
      input: Uint8Array;
      /** Length of the code deployed. */
      runtimeSize: number;
      gasUsed: bigint;
    };

/** A call frame of the execution being recorded. */
interface Frame {
  readonly depth: number;
  readonly delegatecall: boolean;
  /** The call data's first four bytes (-1 for shorter data), read at once: the data can be a view of the caller's memory. */
  readonly selector: number;
  code: Uint8Array;
  output: Uint8Array;
  /** The frame's calls, while it runs: which one it forwarded to is decided when it ends. */
  children: Frame[];
  /** The DELEGATECALL child this frame forwarded its call to, if it acted as a proxy. */
  forwardedTo: Frame | undefined;
}

const EMPTY = new Uint8Array(0);

export class ExecutionRecorder {
  private active = false;
  private root: Frame | undefined;
  private readonly open: Frame[] = [];
  private reports: ExecutionReport[] = [];

  /** Whether the running execution is one to measure (its frames are recorded). */
  get recording(): boolean {
    return this.active;
  }

  /** An execution to measure starts (a mined transaction, an eth_call). */
  begin(): void {
    this.active = true;
    this.root = undefined;
  }

  /** The execution is over; what runs next (a gas estimate) is not measured. */
  end(): void {
    this.active = false;
    this.root = undefined;
    this.open.length = 0;
  }

  /** Runs a call frame of the measured execution, noting what proxy detection needs of it. */
  async call(message: Message, run: () => Promise<EVMResult>): Promise<EVMResult> {
    const frame: Frame = { depth: message.depth, delegatecall: message.delegatecall, selector: selectorOf(message.data), code: EMPTY, output: EMPTY, children: [], forwardedTo: undefined };
    const parent = this.open[this.open.length - 1];
    if (message.depth === 0) this.root = frame;
    // A frame under a CREATE (two levels below the open call) is no proxy's: it stays out of the tree.
    else if (parent !== undefined && parent.depth + 1 === message.depth) parent.children.push(frame);
    this.open.push(frame);
    try {
      const result = await run();
      // The code is loaded by the run; a precompile's is a function, not code.
      if (message.code instanceof Uint8Array && message.isCompiled !== true) frame.code = message.code;
      frame.output = result.execResult.returnValue;
      // Decided now, while every output compared is still what its frame returned.
      frame.forwardedTo = frame.children.find((child) => child.delegatecall && child.selector !== -1 && child.selector === frame.selector && sameBytes(child.output, frame.output));
      frame.children = [];
      return result;
    } finally {
      this.open.pop();
    }
  }

  /** A measured execution's transaction ran (the VM's afterTx): its report, if it succeeded. */
  transactionRan(event: AfterTxEvent): void {
    if (!this.active || event.execResult.exceptionError !== undefined) return;
    const input = event.transaction.data;
    const gasUsed = event.totalGasSpent;
    if (event.transaction.to === undefined) {
      this.reports.push({ kind: "create", input, runtimeSize: event.execResult.returnValue.length, gasUsed });
      return;
    }
    const root = this.root;
    this.reports.push({ kind: "call", input, code: root?.code ?? EMPTY, proxyChain: root === undefined ? [] : proxyChain(root), gasUsed });
  }

  /** The reports since the last take, in the order the executions ran. */
  take(): ExecutionReport[] {
    if (this.reports.length === 0) return [];
    const reports = this.reports;
    this.reports = [];
    return reports;
  }
}

/** The codes a frame forwarded its call through, itself first (EDR's detect_proxy_chain), or [] if it forwarded none. */
function proxyChain(frame: Frame): Uint8Array[] {
  if (frame.forwardedTo === undefined) return [];
  const codes = [frame.code];
  for (let next: Frame | undefined = frame.forwardedTo; next !== undefined; next = next.forwardedTo) codes.push(next.code);
  return codes;
}

function selectorOf(data: Uint8Array): number {
  return data.length < 4 ? -1 : ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
