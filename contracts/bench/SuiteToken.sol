// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {ERC20Pausable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Pausable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/**
 * @title SuiteToken
 * @dev The dApp token of the suite benchmark (`bench/suites/erc20.suite.ts`): an OpenZeppelin
 * ERC-20 (burnable, pausable, owned) with a time lock and a rate-limited faucet, so the suite
 * exercises what a typical project's tests do: events, custom errors, reason strings, time
 * travel and mining. It uses no precompile, so every network can run it.
 */
contract SuiteToken is ERC20, ERC20Burnable, ERC20Pausable, Ownable {
    struct Lock {
        uint256 amount;
        uint64 releaseTime;
    }

    /// @dev Tokens handed out per faucet claim.
    uint256 public constant FAUCET_AMOUNT = 100 ether;
    /// @dev Blocks between two claims of one account.
    uint256 public constant FAUCET_INTERVAL = 10;

    mapping(address => Lock) public locks;
    mapping(address => uint256) public lastClaimBlock;

    event Locked(address indexed beneficiary, uint256 amount, uint64 releaseTime);
    event Released(address indexed beneficiary, uint256 amount);

    error ReleaseNotDue(uint64 releaseTime);

    constructor(uint256 initialSupply) ERC20("Suite Token", "SUITE") Ownable(_msgSender()) {
        _mint(_msgSender(), initialSupply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function pause() external onlyOwner {
        _pause();
    }

    function unpause() external onlyOwner {
        _unpause();
    }

    /// @dev Moves `amount` of the caller's tokens into a lock that `beneficiary` can release at `releaseTime`.
    function lock(address beneficiary, uint256 amount, uint64 releaseTime) external {
        require(releaseTime > block.timestamp, "SuiteToken: release time is in the past");
        require(locks[beneficiary].amount == 0, "SuiteToken: already locked");
        _transfer(_msgSender(), address(this), amount);
        locks[beneficiary] = Lock(amount, releaseTime);
        emit Locked(beneficiary, amount, releaseTime);
    }

    /// @dev Releases the caller's lock once its time has come.
    function release() external {
        Lock memory held = locks[_msgSender()];
        require(held.amount > 0, "SuiteToken: nothing locked");
        if (block.timestamp < held.releaseTime) revert ReleaseNotDue(held.releaseTime);
        delete locks[_msgSender()];
        _transfer(address(this), _msgSender(), held.amount);
        emit Released(_msgSender(), held.amount);
    }

    /// @dev Mints FAUCET_AMOUNT to the caller, at most once every FAUCET_INTERVAL blocks.
    function claim() external {
        uint256 last = lastClaimBlock[_msgSender()];
        require(last == 0 || block.number >= last + FAUCET_INTERVAL, "SuiteToken: faucet claimed too recently");
        lastClaimBlock[_msgSender()] = block.number;
        _mint(_msgSender(), FAUCET_AMOUNT);
    }

    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Pausable) {
        super._update(from, to, value);
    }
}
