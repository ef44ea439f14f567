import { expect } from "chai";
import { AbiCoder, id } from "ethers";
import { ConsoleLogger__factory } from "../../typechain-types";
import { startChain, type TestChain } from "../helpers/chain";

/** hardhat/console.sol's address: "console.log" in ASCII, left-padded with 9 zero bytes. */
const CONSOLE_ADDRESS = "0x000000000000000000636f6e736f6c652e6c6f67";

/** A `log(string)` payload, exactly as console.sol sends it. */
const PAYLOAD = id("log(string)").slice(0, 10) + AbiCoder.defaultAbiCoder().encode(["string"], ["hi"]).slice(2);

/** The console address with byte `index` (0-19) replaced by `value`. */
function consoleAddressWithByte(index: number, value: number): string {
  const hex = CONSOLE_ADDRESS.slice(2);
  return "0x" + hex.slice(0, index * 2) + value.toString(16).padStart(2, "0") + hex.slice(index * 2 + 2);
}

describe("console.log detection (calls to hardhat/console.sol's address)", () => {
  let chain: TestChain;
  let lines: string[];
  beforeEach(async () => {
    lines = [];
    chain = await startChain({ log: (line) => lines.push(line) });
  });

  async function sendPayload(to: string): Promise<void> {
    await (await chain.signers[0]!.sendTransaction({ to, data: PAYLOAD, gasLimit: 100_000 })).wait();
  }

  it("prints what a contract logs through console.sol during eth_call", async () => {
    const logger = await new ConsoleLogger__factory(chain.signers[0]!).deploy();
    expect(await logger.greet("bob", 3n)).to.equal(6n);
    // The address in lowercase, as Hardhat's network prints it (the package journey compares the two).
    expect(lines).to.deep.equal(["hello bob, n = 3", chain.signers[0]!.address.toLowerCase()]);
  });

  it("prints a payload sent straight to the console address in a transaction", async () => {
    await sendPayload(CONSOLE_ADDRESS);
    expect(lines).to.deep.equal(["hi"]);
  });

  it("prints nothing for eth_estimateGas, which still succeeds", async () => {
    const logger = await new ConsoleLogger__factory(chain.signers[0]!).deploy();
    lines.length = 0;
    const gas = await logger.greet.estimateGas("bob", 3n);
    expect(gas > 21_000n, gas.toString()).to.equal(true);
    expect(lines).to.deep.equal([]);
  });

  it("prints nothing for a call to an ordinary address starting with a zero byte", async () => {
    await sendPayload("0x00000000000000000000000000000000000dead1");
    expect(lines).to.deep.equal([]);
  });

  for (const [index, value, what] of [
    [19, 0x68, "its last byte"],
    [9, 0x64, "its first non-zero byte"],
    [8, 0x01, "the last byte of its zero padding"],
    [1, 0x01, "the second byte of its zero padding"],
    [0, 0x01, "its first byte"],
  ] as const) {
    it(`prints nothing for an address that differs from the console address only in ${what} (byte ${index})`, async () => {
      await sendPayload(consoleAddressWithByte(index, value));
      expect(lines).to.deep.equal([]);
    });
  }
});
