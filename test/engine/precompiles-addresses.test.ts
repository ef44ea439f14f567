import { expect } from "chai";
import { GENESIS_CONTRACT_ADDRESS, NATIVE_ASSET_BALANCE_ADDRESS, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { rejection, startChain, type TestChain } from "../helpers/chain";

/**
 * Which addresses are precompiles, seen through eth_estimateGas of a call without data: as in
 * geth, a plain transfer to an address without code is answered with exactly 21000, while a
 * precompile (no code either) is run, so its own cost or failure shows in the answer.
 */
describe("precompile addresses (eth_estimateGas of a call without data)", () => {
  let chain: TestChain;
  beforeEach(async () => {
    chain = await startChain();
  });

  function estimate(to: string): Promise<bigint> {
    return (chain.rpc("eth_estimateGas", [{ from: chain.signers[0]!.address, to }]) as Promise<string>).then(BigInt);
  }

  for (const [address, name, price] of [
    ["0x0000000000000000000000000000000000000001", "ecrecover (0x01)", 3000n],
    ["0x0000000000000000000000000000000000000004", "identity (0x04)", 15n],
    ["0x0000000000000000000000000000000000000005", "modexp (0x05)", 200n],
  ] as const) {
    it(`runs the standard precompile ${name}: at least 21000 + its ${price} gas`, async () => {
      const gas = await estimate(address);
      expect(gas >= 21_000n + price, gas.toString()).to.equal(true);
    });
  }

  for (const [address, name] of [
    [NATIVE_ASSET_BALANCE_ADDRESS, "nativeAssetBalance"],
    [NATIVE_ASSET_CALL_ADDRESS, "nativeAssetCall"],
    [GENESIS_CONTRACT_ADDRESS, "the deprecated genesis contract"],
  ] as const) {
    it(`runs ${name}, which reverts on empty input, so the estimate fails`, async () => {
      const error = await rejection(estimate(address));
      expect(error.message).to.match(/execution reverted/);
    });
  }

  for (const [address, why] of [
    ["0x0000000000000000000000000000000000000000", "the zero address (below 0x01)"],
    ["0x0000000000000000000000000000000000000012", "0x12 (above the standard range)"],
    ["0x0001000000000000000000000000000000000001", "0x01 with a non-zero second byte"],
    ["0x0000000000000000000000000000000000010001", "0x01 with a non-zero byte 18"],
    ["0x0200000000000000000000000000000000000001", "0x01 with first byte 2"],
    ["0x0100000000000000000000000000000000000003", "the next address after the native precompiles"],
    ["0x0101000000000000000000000000000000000001", "nativeAssetBalance with a non-zero second byte"],
    ["0x0100000000000000000000000000000000010001", "nativeAssetBalance with a non-zero byte 18"],
  ] as const) {
    it(`treats ${why} as an ordinary address: exactly 21000`, async () => {
      expect(await estimate(address)).to.equal(21_000n);
    });
  }
});
