import { sha256 } from "@noble/hashes/sha2.js";
import { ByteReader, ByteWriter } from "../../utxo/codec";

/**
 * The reference node's proposer block (the "proposervm" wrapping every block of a snowman chain
 * after its activation), as an index stores the blocks of the contract and platform chains.
 *
 * Facts used, read in avalanchego `vms/proposervm/block/` (block.go, build.go, codec.go; the same
 * from v1.7 to today for this block type):
 * - bytes = linear codec, codec version 0 (uint16), then the type ID of the registered type
 *   (uint32; `statelessBlock` is registered first: 0), then its fields in order:
 *   ParentID [32]byte, Timestamp int64 (Unix seconds), PChainHeight uint64, Certificate []byte,
 *   Block []byte (the inner block: RLP on the contract chain), Signature []byte; byte slices are
 *   a uint32 length then the bytes, integers big-endian;
 * - an unsigned block (built by `BuildUnsigned`) has an empty certificate and an empty signature;
 * - the block's ID is the sha256 of its *unsigned* bytes: the bytes without the signature and
 *   its uint32 length prefix (for an unsigned block: all bytes but the last 4).
 * Later block types (type ID 2, with an epoch) are not produced here.
 */
export interface ProposerBlock {
  /** ID of the previous block as the index knows it (its container ID). */
  parentId: Uint8Array;
  /** Unix seconds. */
  timestamp: bigint;
  pChainHeight: bigint;
  /** DER certificate of the proposer; empty for an unsigned block. */
  certificate: Uint8Array;
  /** The inner block's bytes. */
  block: Uint8Array;
  /** Signature of the proposer; empty for an unsigned block. */
  signature: Uint8Array;
}

export const PROPOSER_CODEC_VERSION = 0;
export const PROPOSER_BLOCK_TYPE_ID = 0;
const ID_LENGTH = 32;

export function encodeProposerBlock(block: ProposerBlock): Uint8Array {
  return new ByteWriter(block.block.length + 128)
    .uint16(PROPOSER_CODEC_VERSION, "codecVersion")
    .uint32(PROPOSER_BLOCK_TYPE_ID, "typeID")
    .fixedBytes(block.parentId, ID_LENGTH, "parentID")
    .uint64(BigInt.asUintN(64, block.timestamp), "timestamp")
    .uint64(block.pChainHeight, "pChainHeight")
    .bytes(block.certificate, "certificate")
    .bytes(block.block, "block")
    .bytes(block.signature, "signature")
    .finish();
}

/** Reads a proposer block; throws `CodecError` for anything else. */
export function decodeProposerBlock(bytes: Uint8Array): ProposerBlock {
  const reader = new ByteReader(bytes);
  const version = reader.uint16("codecVersion");
  if (version !== PROPOSER_CODEC_VERSION) reader.fail("codecVersion", `unknown codec version ${version}`, 0);
  const typeId = reader.uint32("typeID");
  if (typeId !== PROPOSER_BLOCK_TYPE_ID) reader.fail("typeID", `type ID ${typeId} is not an unsigned-or-signed proposer block (0)`, 2);
  const block: ProposerBlock = {
    parentId: reader.fixedBytes(ID_LENGTH, "parentID"),
    timestamp: BigInt.asIntN(64, reader.uint64("timestamp")),
    pChainHeight: reader.uint64("pChainHeight"),
    certificate: reader.bytesWithLength("certificate"),
    block: reader.bytesWithLength("block"),
    signature: reader.bytesWithLength("signature"),
  };
  reader.end("proposer block");
  return block;
}

/** The ID of a proposer block: sha256 of its bytes without the signature and its length prefix. */
export function proposerBlockId(bytes: Uint8Array): Uint8Array {
  const { signature } = decodeProposerBlock(bytes);
  return sha256(bytes.subarray(0, bytes.length - 4 - signature.length));
}
