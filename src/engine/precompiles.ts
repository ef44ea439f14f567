/**
 * The contract chain's native-asset precompiles (nativeAssetBalance, nativeAssetCall, and the
 * deprecated genesis contract) and the EVM subclass that lets them see the calling message.
 * Their addresses and input layouts are defined in `encoding/precompile`.
 */
import { EventEmitter } from "node:events";
import { EVM, EVMError, Message, type EVMRunCallOpts, type ExecResult, type InterpreterStep, type PrecompileInput, type EVMResult } from "@ethereumjs/evm";
import { Account, Address, createAddressFromString, hexToBytes, bigIntToBytes, bytesToUnprefixedHex, setLengthLeft } from "@ethereumjs/util";
import {
  decodeNativeAssetBalanceInputBytes,
  decodeNativeAssetCallInputBytes,
  GENESIS_CONTRACT_ADDRESS,
  NATIVE_ASSET_BALANCE_ADDRESS,
  NATIVE_ASSET_BALANCE_INPUT_LENGTH,
  NATIVE_ASSET_CALL_ADDRESS,
  NATIVE_ASSET_CALL_MIN_INPUT_LENGTH,
} from "../encoding/precompile";
import type { NativeStateManager } from "./state-manager";
import { CONSOLE_LOG_ADDRESS_HEX } from "./console-log";
import { ExecutionBudget } from "./execution-budget";
import { ExecutedInstructions, type FailureTrace, FailedFrameRecorder, rememberFailureTrace } from "./failure-trace";
import { recordInstructions } from "./instruction-recorder";
import { create2ContractAddress, createdContractAddress } from "./contract-address";

/** Gas charged up front by nativeAssetBalance (reference node). */
export const NATIVE_ASSET_BALANCE_GAS = 2474n;
/** Gas charged up front by nativeAssetCall (reference node). */
export const NATIVE_ASSET_CALL_GAS = 9000n;
/** Extra gas nativeAssetCall charges when `to` does not exist yet. */
export const CALL_NEW_ACCOUNT_GAS = 25000n;
/** A failed execution that used more gas than this is not replayed for its stack trace. */
const MAX_REPLAYED_GAS = 1_000_000n;
/** Maximum call depth of the EVM. */
const MAX_CALL_DEPTH = 1024;

const GENESIS_CONTRACT = createAddressFromString(GENESIS_CONTRACT_ADDRESS);
const NATIVE_ASSET_BALANCE = createAddressFromString(NATIVE_ASSET_BALANCE_ADDRESS);
export const NATIVE_ASSET_CALL = createAddressFromString(NATIVE_ASSET_CALL_ADDRESS);

const EMPTY = new Uint8Array(0);

/**
 * An EVM whose precompiles can see the message that invoked them.
 *
 * ethereumjs hands a precompile only its input and gas; nativeAssetCall needs the caller
 * (to debit it and forward it as msg.sender), the static flag and the call depth. We note the
 * message just before the base class dispatches it; nothing can run in between, because the
 * EVM executes one frame at a time.
 */
export class NativeEVM extends EVM {
  private precompileMessage: Message | undefined;
  /** Receives console.log payloads from hardhat/console.sol while set (the engine decides when to print). */
  consoleSink: ((payload: Uint8Array) => void) | undefined;

  /** Replay a failed transaction or call to record the instructions its failing frames ran. */
  replayFailures = false;
  /** Whether a failure is being replayed: what observes execution (coverage, gas) must not count it twice. */
  protected replaying = false;
  /** The frames of the running transaction or call that failed, for its failure trace. */
  private readonly failedFrames = new FailedFrameRecorder();
  /**
   * How long an execution may hold the process, when the chain limits it (a node's: its JUMPDEST
   * is then the budget's custom opcode: an extra await per JUMPDEST, which makes a loop of
   * nothing but JUMPDEST, PUSH and JUMP a third slower; the Hardhat networks run without it).
   */
  readonly budget: ExecutionBudget | undefined;

  constructor(options: ConstructorParameters<typeof EVM>[0], budget?: ExecutionBudget) {
    super(budget === undefined ? options : { ...options, customOpcodes: [...(options?.customOpcodes ?? []), budget.jumpdestOpcode()] });
    this.budget = budget;
  }

  override async runCall(opts: EVMRunCallOpts): Promise<EVMResult> {
    const topLevel = (opts.message?.depth ?? opts.depth ?? 0) === 0;
    if (!topLevel) return super.runCall(opts);
    this.budget?.messageStarting();
    this.failedFrames.reset();
    const result = await super.runCall(opts);
    const error = result.execResult.exceptionError;
    if (error !== undefined) {
      let trace = this.failedFrames.trace();
      // A replay runs every instruction again with a step event each: bounded by gas, and not
      // for running out of gas, whose frame's own location is all there is to say.
      if (trace !== undefined && this.replayFailures && error.error !== "out of gas" && this.budget?.timedOut !== true && result.execResult.executionGasUsed <= MAX_REPLAYED_GAS) {
        trace = await this.replayForInstructions(opts, trace);
      }
      if (trace !== undefined) rememberFailureTrace(result.execResult, trace);
    }
    return result;
  }

  /**
   * Runs the failed top-level message again, from the same state (the failure reverted all it
   * did), recording each frame's instructions; then reverts whatever the replay did. console.log
   * is not printed twice.
   */
  private async replayForInstructions(opts: EVMRunCallOpts, trace: FailureTrace): Promise<FailureTrace> {
    const executed = new ExecutedInstructions();
    const consoleSink = this.consoleSink;
    // The replay's events go nowhere: listeners (solidity-coverage's step listener, the
    // observers) must not hear the execution twice. A Node.js emitter answers
    // listenerCount/listeners, all ethereumjs asks of its emitter.
    const events = this.events;
    const replayEvents = new EventEmitter();
    // The instructions are noted by the interpreter's step (instruction-recorder.ts), or where an
    // ethereumjs has no step method to wrap, by step events (an event per instruction, slower).
    const stopRecording = recordInstructions(this, (depth, pc) => executed.step(depth, pc));
    if (stopRecording === undefined) replayEvents.on("step", (step: InterpreterStep) => executed.step(step.depth, step.pc));
    Object.assign(this, { events: replayEvents });
    this.consoleSink = undefined;
    this.replaying = true;
    await this.journal.checkpoint();
    try {
      await super.runCall(opts);
      return executed.attachTo(trace);
    } catch {
      return trace;
    } finally {
      stopRecording?.();
      await this.journal.revert();
      Object.assign(this, { events });
      this.consoleSink = consoleSink;
      this.replaying = false;
    }
  }

  /**
   * The new contract's address, as the base class computes it (its sender's nonce was already
   * raised, so the creation used the one before), through the engine's Keccak.
   */
  protected override async _generateAddress(message: Message): Promise<Address> {
    if (message.salt !== undefined) return create2ContractAddress(message.caller.bytes, message.salt, message.code as Uint8Array);
    const account = await this.stateManager.getAccount(message.caller);
    return createdContractAddress(message.caller.bytes, (account?.nonce ?? 0n) - 1n);
  }

  protected override async runInterpreter(message: Message, opts?: Parameters<EVM["runInterpreter"]>[1]): Promise<ExecResult> {
    const stopped = await this.budget?.frameStarting(message);
    if (stopped !== undefined) return stopped;
    const result = await super.runInterpreter(message, opts);
    if (result.exceptionError !== undefined) this.failedFrames.codeFrameEnded(message, result);
    return result;
  }

  protected override async _executeCall(message: Message & { to: Address }): Promise<EVMResult> {
    const code = message.codeAddress.bytes;
    if (code[0] === 1 && isNativeAddressTail(code)) {
      this.precompileMessage = message;
      const result = await super._executeCall(message);
      if (result.execResult.exceptionError !== undefined) this.failedFrames.precompileEnded(message, result);
      return result;
    }
    if (this.consoleSink !== undefined && code[0] === 0 && isConsoleAddress(code)) this.consoleSink(message.data);
    return super._executeCall(message);
  }

  /** The message of the precompile call now running; consumed once. */
  takePrecompileMessage(): Message {
    const message = this.precompileMessage;
    if (message === undefined) throw new Error("native precompile invoked without a message");
    this.precompileMessage = undefined;
    return message;
  }
}

const CONSOLE_ADDRESS = hexToBytes(`0x${CONSOLE_LOG_ADDRESS_HEX}`);

function isConsoleAddress(bytes: Uint8Array): boolean {
  for (let i = 19; i >= 9; i--) if (bytes[i] !== CONSOLE_ADDRESS[i]) return false;
  for (let i = 0; i < 9; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Standard precompiles (0x01–0x11) and the three native ones at 0x0100…00–02. */
export function isPrecompileAddress(bytes: Uint8Array): boolean {
  if (bytes[0] === 1) return isNativeAddressTail(bytes);
  for (let i = 1; i < 19; i++) if (bytes[i] !== 0) return false;
  return bytes[0] === 0 && bytes[19]! >= 1 && bytes[19]! <= 0x11;
}

/** True for 0x0100…0000, 0x0100…0001 and 0x0100…0002 given that byte 0 is 1. */
function isNativeAddressTail(bytes: Uint8Array): boolean {
  for (let i = 1; i < 19; i++) if (bytes[i] !== 0) return false;
  return bytes[19]! <= 2;
}

function outOfGas(gasLimit: bigint): ExecResult {
  return { executionGasUsed: gasLimit, returnValue: EMPTY, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
}

/** A revert: the gas charged so far stays spent, the rest goes back to the caller. */
function revert(gasUsed: bigint, returnValue: Uint8Array = EMPTY): ExecResult {
  return { executionGasUsed: gasUsed, returnValue, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
}

/** A failure that is not a revert consumes every unit of gas the frame had. */
function failure(gasLimit: bigint, error: EVMError): ExecResult {
  return { executionGasUsed: gasLimit, returnValue: EMPTY, exceptionError: error };
}

export async function nativeAssetBalance(input: PrecompileInput): Promise<ExecResult> {
  if (input.gasLimit < NATIVE_ASSET_BALANCE_GAS) return outOfGas(input.gasLimit);
  // The message is noted for every native precompile; this one does not need it.
  (input._EVM as NativeEVM).takePrecompileMessage();
  if (input.data.length !== NATIVE_ASSET_BALANCE_INPUT_LENGTH) return revert(NATIVE_ASSET_BALANCE_GAS);
  const { account, assetId } = decodeNativeAssetBalanceInputBytes(input.data);
  const state = input._EVM.stateManager as NativeStateManager;
  const [accountHex, assetHex] = [bytesToUnprefixedHex(account), bytesToUnprefixedHex(assetId)];
  await state.loadAssetBalance(accountHex, assetHex);
  const balance = state.multiCoin.getBalance(accountHex, assetHex);
  return { executionGasUsed: NATIVE_ASSET_BALANCE_GAS, returnValue: setLengthLeft(bigIntToBytes(balance), 32) };
}

export async function nativeAssetCall(input: PrecompileInput): Promise<ExecResult> {
  const evm = input._EVM as NativeEVM;
  const message = evm.takePrecompileMessage();
  const gasLimit = input.gasLimit;
  if (gasLimit < NATIVE_ASSET_CALL_GAS) return outOfGas(gasLimit);
  let remaining = gasLimit - NATIVE_ASSET_CALL_GAS;
  if (message.isStatic) return revert(NATIVE_ASSET_CALL_GAS);
  if (input.data.length < NATIVE_ASSET_CALL_MIN_INPUT_LENGTH) return revert(NATIVE_ASSET_CALL_GAS);

  const decoded = decodeNativeAssetCallInputBytes(input.data);
  // Copies: the address and call data outlive this call (state caches, the inner message).
  const to = new Address(decoded.to.slice());
  const assetId = bytesToUnprefixedHex(decoded.assetId);
  const amount = decoded.amount;
  const callData = decoded.callData.slice();
  // The precompile acts for the account whose code called it: under DELEGATECALL that is the
  // delegating contract (ethereumjs keeps the outer msg.sender in `caller` there).
  const caller = message.delegatecall ? message.to! : message.caller;
  const callerHex = bytesToUnprefixedHex(caller.bytes);
  const toHex = bytesToUnprefixedHex(to.bytes);

  const state = evm.stateManager as NativeStateManager;
  const multiCoin = state.multiCoin;
  // A fork reads both balances from its remote first (a no-op otherwise).
  await state.loadAssetBalance(callerHex, assetId);
  await state.loadAssetBalance(toHex, assetId);
  const callerBalance = multiCoin.getBalance(callerHex, assetId);
  if (amount !== 0n && callerBalance < amount) {
    return failure(gasLimit, new EVMError(EVMError.errorMessages.INSUFFICIENT_BALANCE));
  }

  // On any failure below we return an error, and the EVM reverts this whole frame: the new
  // account and the transfer are undone exactly as the reference node's snapshot undoes them.
  if (message.depth + 1 > MAX_CALL_DEPTH) return failure(gasLimit, new EVMError(EVMError.errorMessages.STACK_OVERFLOW));
  if ((await state.getAccount(to)) === undefined) {
    if (remaining < CALL_NEW_ACCOUNT_GAS) return outOfGas(gasLimit);
    remaining -= CALL_NEW_ACCOUNT_GAS;
    await evm.journal.putAccount(to, new Account());
  }
  if (amount !== 0n) {
    // The callee already sees the moved balance: the transfer happens before the call.
    multiCoin.setBalance(callerHex, assetId, callerBalance - amount);
    multiCoin.setBalance(toHex, assetId, multiCoin.getBalance(toHex, assetId) + amount);
  }

  const inner = new Message({
    caller, // forwarded: the callee sees the precompile's caller as msg.sender
    to,
    value: 0n,
    data: callData,
    gasLimit: remaining,
    depth: message.depth + 1,
    isStatic: false,
    // Shared with this frame's message: the parent frame merges them only if we succeed.
    selfdestruct: message.selfdestruct,
    createdAddresses: message.createdAddresses,
    gasRefund: message.gasRefund,
    blobVersionedHashes: message.blobVersionedHashes,
  });
  const exec = (await evm.runCall({ message: inner })).execResult;
  const gasUsed = gasLimit - remaining + exec.executionGasUsed;
  if (exec.exceptionError !== undefined) {
    if (exec.exceptionError.error === EVMError.errorMessages.REVERT) return revert(gasUsed, exec.returnValue);
    return failure(gasLimit, exec.exceptionError);
  }
  return { executionGasUsed: gasUsed, returnValue: exec.returnValue, logs: exec.logs, gasRefund: exec.gasRefund };
}

/** A deprecated precompile reverts and hands back all of its gas (reference node, later upgrades). */
function deprecatedPrecompile(input: PrecompileInput): ExecResult {
  const evm = input._EVM as NativeEVM;
  evm.takePrecompileMessage();
  return revert(0n);
}

export interface NativePrecompileOptions {
  /** Simulate the network upgrade that deprecated both precompiles. */
  deprecated: boolean;
}

export function nativePrecompiles(options: NativePrecompileOptions) {
  return [
    { address: GENESIS_CONTRACT, function: deprecatedPrecompile },
    { address: NATIVE_ASSET_BALANCE, function: options.deprecated ? deprecatedPrecompile : nativeAssetBalance },
    { address: NATIVE_ASSET_CALL, function: options.deprecated ? deprecatedPrecompile : nativeAssetCall },
  ];
}
