import { expect } from "chai";
import { verifyMerkleProof } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { bytesToBigInt, bytesToHex, hexToBytes } from "@ethereumjs/util";
import { decodeRlp, getBytes, keccak256, toBeHex, zeroPadValue, type RlpStructuredData } from "ethers";
import { RpcHarness__factory } from "../../typechain-types";
import { rejection, startChain, testAssetId, type TestChain } from "../helpers/chain";

interface Proof {
  address: string;
  accountProof: string[];
  balance: string;
  codeHash: string;
  nonce: string;
  storageHash: string;
  storageProof: { key: string; value: string; proof: string[] }[];
}

const EMPTY_TRIE_ROOT = keccak256("0x80");
const EMPTY_CODE_HASH = keccak256("0x");

/**
 * An independent check of a Merkle-Patricia proof, written from the Yellow Paper's node rules
 * with ethers' keccak256 and RLP decoder only: the value at `path` (keccak of the key) under
 * `root`, or null where the proof shows there is none. Throws if the proof does not hold.
 */
function walkProof(root: string, key: string, proof: readonly string[]): string | null {
  const nibbles = [...getBytes(keccak256(key))].flatMap((b) => [b >> 4, b & 15]);
  let at = 0;
  let expected: string = root;
  for (const encoded of proof) {
    if (keccak256(encoded) !== expected) throw new Error(`proof node ${encoded.slice(0, 20)}… is not the one its parent names`);
    let node: RlpStructuredData = decodeRlp(encoded);
    // Follows nodes embedded in this one (shorter than 32 bytes) until a hash reference or the end.
    for (;;) {
      if (!Array.isArray(node)) throw new Error("a trie node must be a list");
      if (node.length === 17) {
        if (at === nibbles.length) return (node[16] as string) === "0x" ? null : (node[16] as string);
        const child = node[nibbles[at++]!]!;
        if (child === "0x") return null;
        if (Array.isArray(child)) {
          node = child;
          continue;
        }
        expected = child as string;
        break;
      }
      if (node.length !== 2) throw new Error(`a trie node has 2 or 17 items, not ${node.length}`);
      const pathBytes = getBytes(node[0] as string);
      const flag = pathBytes[0]! >> 4;
      const path = [...pathBytes].flatMap((b) => [b >> 4, b & 15]).slice(flag % 2 === 1 ? 1 : 2);
      const matches = path.every((n, i) => nibbles[at + i] === n);
      if (flag >= 2) return matches && at + path.length === nibbles.length ? (node[1] as string) : null;
      if (!matches) return null;
      at += path.length;
      const child = node[1]!;
      if (Array.isArray(child)) {
        node = child;
        continue;
      }
      expected = child as string;
      break;
    }
  }
  throw new Error("the proof ends before the key's leaf or its absence");
}

/** The proof checked against `stateRoot` two ways (ethereumjs' verifier and walkProof); the account's fields as proved. */
async function verifiedAccount(proof: Proof, stateRoot: string): Promise<{ nonce: bigint; balance: bigint; storageRoot: string; codeHash: string } | null> {
  expect(keccak256(proof.accountProof[0]!)).to.equal(stateRoot);
  const nodes = proof.accountProof.map((n) => hexToBytes(n as `0x${string}`));
  const byEthereumjs = await verifyMerkleProof(hexToBytes(proof.address as `0x${string}`), nodes, { useKeyHashing: true });
  const byWalk = walkProof(stateRoot, proof.address, proof.accountProof);
  expect(byEthereumjs === null ? null : bytesToHex(byEthereumjs)).to.equal(byWalk);
  if (byWalk === null) return null;
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(getBytes(byWalk)) as Uint8Array[];
  return { nonce: bytesToBigInt(nonce!), balance: bytesToBigInt(balance!), storageRoot: bytesToHex(storageRoot!), codeHash: bytesToHex(codeHash!) };
}

/** A slot's proof checked against the account's storage root; the value proved. */
async function verifiedSlot(item: Proof["storageProof"][number], storageRoot: string): Promise<bigint> {
  if (item.proof.length === 0) {
    expect(storageRoot).to.equal(EMPTY_TRIE_ROOT);
    return 0n;
  }
  const key = zeroPadValue(toBeHex(BigInt(item.key)), 32);
  const nodes = item.proof.map((n) => hexToBytes(n as `0x${string}`));
  const byEthereumjs = await verifyMerkleProof(hexToBytes(key as `0x${string}`), nodes, { useKeyHashing: true });
  const byWalk = walkProof(storageRoot, key, item.proof);
  expect(byEthereumjs === null ? null : bytesToHex(byEthereumjs)).to.equal(byWalk);
  return byWalk === null ? 0n : bytesToBigInt(RLP.decode(getBytes(byWalk)) as Uint8Array);
}

describe("eth_getProof", () => {
  let chain: TestChain;

  const getProof = (address: string, keys: string[], block: string | number = "latest") =>
    chain.rpc("eth_getProof", [address, keys, typeof block === "number" ? toBeHex(block) : block]) as Promise<Proof>;
  const stateRootAt = async (block: string | number) => ((await chain.rpc("eth_getBlockByNumber", [typeof block === "number" ? toBeHex(block) : block, false])) as { stateRoot: string }).stateRoot;

  beforeEach(async () => {
    chain = await startChain();
  });

  it("an account's proof verifies against the block's stateRoot and proves its balance and nonce", async () => {
    const me = chain.signers[0]!.address;
    await (await chain.signers[0]!.sendTransaction({ to: chain.signers[1]!.address, value: 1000n })).wait();
    const proof = await getProof(me, []);
    const account = (await verifiedAccount(proof, await stateRootAt("latest")))!;
    expect(account.balance).to.equal(await chain.provider.getBalance(me));
    expect(account.nonce).to.equal(1n);
    expect(proof).to.include({ address: me.toLowerCase(), balance: `0x${account.balance.toString(16)}`, nonce: "0x1", codeHash: EMPTY_CODE_HASH, storageHash: EMPTY_TRIE_ROOT });
    expect(proof.storageProof).to.deep.equal([]);
  });

  it("a contract's storage proofs verify against its storageHash, present and absent slots alike", async () => {
    const harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await (await harness.store(0x1234n)).wait();
    const address = await harness.getAddress();
    const proof = await getProof(address, [zeroPadValue("0x00", 32), "0x5"]);
    const account = (await verifiedAccount(proof, await stateRootAt("latest")))!;
    expect(account.storageRoot).to.equal(proof.storageHash);
    expect(account.codeHash).to.equal(keccak256(await chain.provider.getCode(address)));
    expect(proof.storageProof.map((s) => [s.key, s.value])).to.deep.equal([
      [zeroPadValue("0x00", 32), "0x1234"],
      ["0x5", "0x0"],
    ]);
    expect(await verifiedSlot(proof.storageProof[0]!, proof.storageHash)).to.equal(0x1234n);
    expect(await verifiedSlot(proof.storageProof[1]!, proof.storageHash)).to.equal(0n);
  });

  it("an account that does not exist: the proof shows its absence, its fields are empty", async () => {
    const nobody = "0x00000000000000000000000000000000000dead1";
    const proof = await getProof(nobody, ["0x1"]);
    expect(await verifiedAccount(proof, await stateRootAt("latest"))).to.equal(null);
    expect(proof).to.include({ balance: "0x0", nonce: "0x0", codeHash: EMPTY_CODE_HASH, storageHash: EMPTY_TRIE_ROOT });
    expect(proof.storageProof).to.deep.equal([{ key: "0x1", value: "0x0", proof: [] }]);
  });

  it("at an older block: verifies against that block's stateRoot, with the values it had then", async () => {
    const harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await (await harness.store(1n)).wait();
    const then = await chain.provider.getBlockNumber();
    await (await harness.store(2n)).wait();
    const address = await harness.getAddress();
    const old = await getProof(address, ["0x0"], then);
    const account = (await verifiedAccount(old, await stateRootAt(then)))!;
    expect(await verifiedSlot(old.storageProof[0]!, account.storageRoot)).to.equal(1n);
    const now = await getProof(address, ["0x0"]);
    await verifiedAccount(now, await stateRootAt("latest"));
    expect(now.storageProof[0]!.value).to.equal("0x2");
  });

  it("multi-coin balances are beside the state trie: setting one changes no root the proofs cover", async () => {
    const holder = chain.signers[2]!.address;
    const before = await getProof(holder, []);
    await chain.rpc("nativekit_setAssetBalance", [holder, testAssetId(7), "0x64"]);
    const after = await getProof(holder, []);
    expect(after.accountProof).to.deep.equal(before.accountProof);
  });

  it("refuses malformed parameters (-32602)", async () => {
    const me = chain.signers[0]!.address;
    expect((await rejection(chain.rpc("eth_getProof", [me, "0x0", "latest"]))).code).to.equal(-32602);
    expect((await rejection(chain.rpc("eth_getProof", [me, [`0x${"11".repeat(33)}`], "latest"]))).code).to.equal(-32602);
    expect((await rejection(chain.rpc("eth_getProof", ["0x1234", [], "latest"]))).code).to.equal(-32602);
  });
});
