/**
 * The proposer block that wraps the contract and platform chains' blocks in the node's index
 * (node-management.md, Index API): codec version 0 (uint16), type ID 0 (uint32), then ParentID
 * [32]byte, Timestamp int64, PChainHeight uint64, Certificate []byte, Block []byte,
 * Signature []byte (byte slices: uint32 length, then the bytes; integers big-endian). The first
 * contract-chain container of a local network is the raw block, built before the wrapper starts.
 */
import { ByteReader } from "../../../utxo/codec";

/** The inner block's bytes when `bytes` is a proposer block, else undefined. */
export function unwrapProposerBlock(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 2 + 4 + 32 + 8 + 8 + 4 * 3 || bytes[0] !== 0 || bytes[1] !== 0) return undefined;
  try {
    const reader = new ByteReader(bytes);
    reader.uint16("codecVersion");
    if (reader.uint32("typeID") !== 0) return undefined;
    reader.fixedBytes(32, "parentID");
    reader.uint64("timestamp");
    reader.uint64("pChainHeight");
    reader.bytesWithLength("certificate");
    const block = reader.bytesWithLength("block");
    reader.bytesWithLength("signature");
    reader.end("proposer block");
    return block;
  } catch {
    return undefined;
  }
}
