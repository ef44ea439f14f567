// @ts-nocheck -- Hardhat 3 code (ES module, top-level await, Hardhat 3's types) in a repository that builds against Hardhat 2; `npm run bench -- suite-hardhat3` drops this line when it copies the file into its Hardhat 3 project and type-checks it there.
/**
 * The Hardhat 3 port of bench/suites/erc20.suite.ts: the same 39 tests of the OpenZeppelin
 * ERC-20 SuiteToken with the same assertions, written as a Hardhat 3 project's tests are: the
 * file's own connection from `network.create()`, `networkHelpers.loadFixture`/`time`/`mine`,
 * and hardhat-ethers-chai-matchers 3 (`changeTokenBalance(s)` take `ethers` first).
 *
 *   npx hardhat test mocha test/erc20.suite.ts --network nativekit   (or no --network: Hardhat's own)
 *
 * It runs in the Hardhat 3 project `npm run bench -- suite-hardhat3` builds (bench/suite-hardhat3.ts),
 * which copies it to test/ there; keep it in step with bench/suites/erc20.suite.ts.
 */
import { expect } from "chai";
import { network } from "hardhat";

import { countTransactions } from "./suite-counter.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;

const SUPPLY = ethers.parseEther("1000000");
const ONE = ethers.parseEther("1");

async function deployToken() {
  const [owner, alice, bob, carol] = await ethers.getSigners();
  const token = await ethers.deployContract("SuiteToken", [SUPPLY]);
  await token.waitForDeployment();
  return { token, owner: owner!, alice: alice!, bob: bob!, carol: carol! };
}

/** The token with 1000 SUITE at alice and bob allowed to spend 300 of them. */
async function fundedToken() {
  const fixture = await deployToken();
  const { token, alice, bob } = fixture;
  await (await token.transfer(alice.address, 1000n * ONE)).wait();
  await (await token.connect(alice).approve(bob.address, 300n * ONE)).wait();
  return fixture;
}

describe("SuiteToken (bench suite: OpenZeppelin ERC-20)", function () {
  countTransactions("erc20", connection);

  describe("deployment", () => {
    it("has its name, symbol and 18 decimals", async () => {
      const { token } = await networkHelpers.loadFixture(deployToken);
      expect(await token.name()).to.equal("Suite Token");
      expect(await token.symbol()).to.equal("SUITE");
      expect(await token.decimals()).to.equal(18n);
    });

    it("mints the whole supply to the deployer", async () => {
      const { token, owner } = await networkHelpers.loadFixture(deployToken);
      expect(await token.totalSupply()).to.equal(SUPPLY);
      expect(await token.balanceOf(owner.address)).to.equal(SUPPLY);
    });

    it("makes the deployer its owner", async () => {
      const { token, owner } = await networkHelpers.loadFixture(deployToken);
      expect(await token.owner()).to.equal(owner.address);
    });
  });

  describe("transfers", () => {
    it("emits Transfer with the parties and the amount", async () => {
      const { token, owner, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.transfer(alice.address, 50n * ONE)).to.emit(token, "Transfer").withArgs(owner.address, alice.address, 50n * ONE);
    });

    it("moves the amount from sender to recipient", async () => {
      const { token, owner, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.transfer(alice.address, 50n * ONE)).to.changeTokenBalances(ethers, token, [owner, alice], [-50n * ONE, 50n * ONE]);
    });

    it("passes tokens along a chain of holders", async () => {
      const { token, alice, bob, carol } = await networkHelpers.loadFixture(fundedToken);
      await (await token.connect(alice).transfer(bob.address, 10n * ONE)).wait();
      await expect(token.connect(bob).transfer(carol.address, 4n * ONE)).to.changeTokenBalances(ethers, token, [bob, carol], [-4n * ONE, 4n * ONE]);
      expect(await token.balanceOf(bob.address)).to.equal(6n * ONE);
    });

    it("allows a transfer of zero", async () => {
      const { token, alice, bob } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(alice).transfer(bob.address, 0n)).to.changeTokenBalances(ethers, token, [alice, bob], [0n, 0n]);
    });

    it("rejects a transfer above the balance with ERC20InsufficientBalance", async () => {
      const { token, alice, bob } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(alice).transfer(bob.address, 1001n * ONE))
        .to.be.revertedWithCustomError(token, "ERC20InsufficientBalance")
        .withArgs(alice.address, 1000n * ONE, 1001n * ONE);
    });

    it("rejects a transfer to the zero address with ERC20InvalidReceiver", async () => {
      const { token } = await networkHelpers.loadFixture(deployToken);
      await expect(token.transfer(ethers.ZeroAddress, 1n))
        .to.be.revertedWithCustomError(token, "ERC20InvalidReceiver")
        .withArgs(ethers.ZeroAddress);
    });

    it("keeps the total supply through transfers", async () => {
      const { token, alice, bob, carol } = await networkHelpers.loadFixture(fundedToken);
      await (await token.connect(alice).transfer(carol.address, 100n * ONE)).wait();
      await (await token.connect(carol).transfer(bob.address, 30n * ONE)).wait();
      expect(await token.totalSupply()).to.equal(SUPPLY);
    });
  });

  describe("allowances", () => {
    it("emits Approval", async () => {
      const { token, alice, carol } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(alice).approve(carol.address, 5n * ONE)).to.emit(token, "Approval").withArgs(alice.address, carol.address, 5n * ONE);
    });

    it("lets the spender move tokens with transferFrom", async () => {
      const { token, alice, bob, carol } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(bob).transferFrom(alice.address, carol.address, 100n * ONE)).to.changeTokenBalances(
        ethers,
        token,
        [alice, bob, carol],
        [-100n * ONE, 0n, 100n * ONE],
      );
    });

    it("lowers the allowance by what was spent", async () => {
      const { token, alice, bob, carol } = await networkHelpers.loadFixture(fundedToken);
      await (await token.connect(bob).transferFrom(alice.address, carol.address, 100n * ONE)).wait();
      expect(await token.allowance(alice.address, bob.address)).to.equal(200n * ONE);
    });

    it("rejects spending above the allowance with ERC20InsufficientAllowance", async () => {
      const { token, alice, bob, carol } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(bob).transferFrom(alice.address, carol.address, 301n * ONE))
        .to.be.revertedWithCustomError(token, "ERC20InsufficientAllowance")
        .withArgs(bob.address, 300n * ONE, 301n * ONE);
    });

    it("does not lower an unlimited allowance", async () => {
      const { token, alice, carol } = await networkHelpers.loadFixture(fundedToken);
      await (await token.connect(alice).approve(carol.address, ethers.MaxUint256)).wait();
      await (await token.connect(carol).transferFrom(alice.address, carol.address, 10n * ONE)).wait();
      expect(await token.allowance(alice.address, carol.address)).to.equal(ethers.MaxUint256);
    });

    it("replaces an allowance on a second approve", async () => {
      const { token, alice, bob } = await networkHelpers.loadFixture(fundedToken);
      await (await token.connect(alice).approve(bob.address, 7n)).wait();
      expect(await token.allowance(alice.address, bob.address)).to.equal(7n);
    });
  });

  describe("minting and burning", () => {
    it("lets the owner mint, emitting a Transfer from zero", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.mint(alice.address, 5n * ONE)).to.emit(token, "Transfer").withArgs(ethers.ZeroAddress, alice.address, 5n * ONE);
      expect(await token.totalSupply()).to.equal(SUPPLY + 5n * ONE);
    });

    it("refuses minting by others with OwnableUnauthorizedAccount", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.connect(alice).mint(alice.address, 1n)).to.be.revertedWithCustomError(token, "OwnableUnauthorizedAccount").withArgs(alice.address);
    });

    it("burns from the holder's balance and the supply", async () => {
      const { token, alice } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(alice).burn(400n * ONE)).to.changeTokenBalance(ethers, token, alice, -400n * ONE);
      expect(await token.totalSupply()).to.equal(SUPPLY - 400n * ONE);
    });

    it("burns with an allowance through burnFrom", async () => {
      const { token, alice, bob } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(bob).burnFrom(alice.address, 100n * ONE)).to.changeTokenBalances(ethers, token, [alice, bob], [-100n * ONE, 0n]);
      expect(await token.allowance(alice.address, bob.address)).to.equal(200n * ONE);
    });

    it("refuses burnFrom without an allowance", async () => {
      const { token, alice, carol } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(carol).burnFrom(alice.address, 1n)).to.be.revertedWithCustomError(token, "ERC20InsufficientAllowance");
    });
  });

  describe("pausing", () => {
    it("emits Paused and blocks transfers with EnforcedPause", async () => {
      const { token, owner, alice, bob } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.pause()).to.emit(token, "Paused").withArgs(owner.address);
      await expect(token.connect(alice).transfer(bob.address, 1n)).to.be.revertedWithCustomError(token, "EnforcedPause");
    });

    it("lets transfers through again after unpause", async () => {
      const { token, alice, bob } = await networkHelpers.loadFixture(fundedToken);
      await (await token.pause()).wait();
      await expect(token.unpause()).to.emit(token, "Unpaused");
      await expect(token.connect(alice).transfer(bob.address, 1n)).to.changeTokenBalances(ethers, token, [alice, bob], [-1n, 1n]);
    });

    it("refuses pausing by others", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.connect(alice).pause()).to.be.revertedWithCustomError(token, "OwnableUnauthorizedAccount");
    });

    it("refuses unpausing when not paused with ExpectedPause", async () => {
      const { token } = await networkHelpers.loadFixture(deployToken);
      await expect(token.unpause()).to.be.revertedWithCustomError(token, "ExpectedPause");
    });
  });

  describe("ownership", () => {
    it("transfers ownership, emitting OwnershipTransferred", async () => {
      const { token, owner, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.transferOwnership(alice.address)).to.emit(token, "OwnershipTransferred").withArgs(owner.address, alice.address);
      await expect(token.connect(alice).mint(alice.address, 1n)).to.changeTokenBalance(ethers, token, alice, 1n);
    });

    it("can renounce ownership, after which nobody mints", async () => {
      const { token, owner } = await networkHelpers.loadFixture(deployToken);
      await (await token.renounceOwnership()).wait();
      await expect(token.mint(owner.address, 1n)).to.be.revertedWithCustomError(token, "OwnableUnauthorizedAccount").withArgs(owner.address);
    });
  });

  describe("time locks", () => {
    async function lockedFixture() {
      const fixture = await fundedToken();
      const releaseTime = (await networkHelpers.time.latest()) + 3600;
      await (await fixture.token.connect(fixture.alice).lock(fixture.carol.address, 200n * ONE, releaseTime)).wait();
      return { ...fixture, releaseTime };
    }

    it("locks tokens in the contract, emitting Locked", async () => {
      const { token, alice, carol } = await networkHelpers.loadFixture(fundedToken);
      const releaseTime = (await networkHelpers.time.latest()) + 600;
      await expect(token.connect(alice).lock(carol.address, 50n * ONE, releaseTime))
        .to.emit(token, "Locked")
        .withArgs(carol.address, 50n * ONE, releaseTime);
      expect(await token.balanceOf(await token.getAddress())).to.equal(50n * ONE);
    });

    it("refuses a release time in the past", async () => {
      const { token, alice, carol } = await networkHelpers.loadFixture(fundedToken);
      await expect(token.connect(alice).lock(carol.address, 1n, (await networkHelpers.time.latest()) - 1)).to.be.revertedWith("SuiteToken: release time is in the past");
    });

    it("refuses a second lock for the same beneficiary", async () => {
      const { token, alice, carol, releaseTime } = await networkHelpers.loadFixture(lockedFixture);
      await expect(token.connect(alice).lock(carol.address, 1n, releaseTime)).to.be.revertedWith("SuiteToken: already locked");
    });

    it("refuses an early release with ReleaseNotDue", async () => {
      const { token, carol, releaseTime } = await networkHelpers.loadFixture(lockedFixture);
      await expect(token.connect(carol).release()).to.be.revertedWithCustomError(token, "ReleaseNotDue").withArgs(releaseTime);
    });

    it("releases once the time has come", async () => {
      const { token, carol } = await networkHelpers.loadFixture(lockedFixture);
      await networkHelpers.time.increase(3600);
      await expect(token.connect(carol).release())
        .to.emit(token, "Released")
        .withArgs(carol.address, 200n * ONE);
      expect(await token.balanceOf(carol.address)).to.equal(200n * ONE);
    });

    it("releases at the release time after time.increaseTo", async () => {
      const { token, carol, releaseTime } = await networkHelpers.loadFixture(lockedFixture);
      await networkHelpers.time.increaseTo(releaseTime);
      await expect(token.connect(carol).release()).to.changeTokenBalance(ethers, token, carol, 200n * ONE);
    });

    it("has nothing left to release the second time", async () => {
      const { token, carol } = await networkHelpers.loadFixture(lockedFixture);
      await networkHelpers.time.increase(7200);
      await (await token.connect(carol).release()).wait();
      await expect(token.connect(carol).release()).to.be.revertedWith("SuiteToken: nothing locked");
    });
  });

  describe("faucet", () => {
    it("hands out FAUCET_AMOUNT", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await expect(token.connect(alice).claim()).to.changeTokenBalance(ethers, token, alice, 100n * ONE);
    });

    it("refuses a second claim right away", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await (await token.connect(alice).claim()).wait();
      await expect(token.connect(alice).claim()).to.be.revertedWith("SuiteToken: faucet claimed too recently");
    });

    it("refuses a claim one block too early", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await (await token.connect(alice).claim()).wait();
      await networkHelpers.mine(8); // the next transaction's block is the 9th after the claim
      await expect(token.connect(alice).claim()).to.be.revertedWith("SuiteToken: faucet claimed too recently");
    });

    it("allows another claim after FAUCET_INTERVAL blocks", async () => {
      const { token, alice } = await networkHelpers.loadFixture(deployToken);
      await (await token.connect(alice).claim()).wait();
      await networkHelpers.mine(9);
      await expect(token.connect(alice).claim()).to.changeTokenBalance(ethers, token, alice, 100n * ONE);
    });

    it("counts blocks per account", async () => {
      const { token, alice, bob } = await networkHelpers.loadFixture(deployToken);
      await (await token.connect(alice).claim()).wait();
      await expect(token.connect(bob).claim()).to.changeTokenBalance(ethers, token, bob, 100n * ONE);
    });
  });
});
