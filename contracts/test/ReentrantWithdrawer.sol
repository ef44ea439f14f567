// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IWrappedNativeAsset} from "../IWrappedNativeAsset.sol";
import {NativeAssets} from "../NativeAssets.sol";

/**
 * @dev Test harness: withdraws from a wrapper and, when the asset arrives (empty call data,
 * so {receive}), re-enters the wrapper once, recording what it saw. For tests only.
 * Give it tokens with an ERC-20 transfer.
 */
contract ReentrantWithdrawer {
    /// @notice The wrapper attacked.
    IWrappedNativeAsset public immutable wrapper;

    /// @notice True if the re-entry calls `deposit()` instead of `withdraw(reentryValue)`.
    bool public reenterDeposit;
    /// @notice Amount passed to the re-entrant `withdraw`.
    uint256 public reentryValue;
    /// @notice True once the re-entrant call was attempted.
    bool public reentryAttempted;
    /// @notice True if the re-entrant call succeeded.
    bool public reentrySucceeded;
    /// @notice Revert data of the re-entrant call, if it failed.
    bytes public reentryError;
    /// @notice This contract's token balance seen at the callback, before re-entering.
    uint256 public seenTokenBalance;
    /// @notice The wrapper's total supply seen at the callback, before re-entering.
    uint256 public seenTotalSupply;
    /// @notice The wrapper's asset balance seen at the callback, before re-entering.
    uint256 public seenWrapperAssetBalance;
    /// @notice This contract's asset balance seen at the callback, before re-entering.
    uint256 public seenOwnAssetBalance;
    /// @notice Tokens minted to this contract by a re-entrant `deposit()`.
    uint256 public reentryMinted;
    /// @notice Number of calls received with empty call data.
    uint256 public callbacks;

    bool private _attacking;

    constructor(IWrappedNativeAsset wrapper_) {
        wrapper = wrapper_;
    }

    /// @notice Withdraws `value`, re-entering `withdraw(reentryValue_)` when the asset arrives.
    function attackWithdraw(uint256 value, uint256 reentryValue_) external {
        reentryValue = reentryValue_;
        reenterDeposit = false;
        _attack(value);
    }

    /// @notice Withdraws `value`, re-entering `deposit()` when the asset arrives.
    function attackDeposit(uint256 value) external {
        reenterDeposit = true;
        _attack(value);
    }

    /// @notice Callback of the withdrawal: re-enters the wrapper once during an attack.
    receive() external payable {
        callbacks += 1;
        if (!_attacking || reentryAttempted) return;
        reentryAttempted = true;

        uint256 assetID = wrapper.assetID();
        seenTokenBalance = wrapper.balanceOf(address(this));
        seenTotalSupply = wrapper.totalSupply();
        seenWrapperAssetBalance = NativeAssets.assetBalance(address(wrapper), assetID);
        seenOwnAssetBalance = NativeAssets.assetBalance(address(this), assetID);

        if (reenterDeposit) {
            try wrapper.deposit() {
                reentrySucceeded = true;
                reentryMinted = wrapper.balanceOf(address(this)) - seenTokenBalance;
            } catch (bytes memory reason) {
                reentryError = reason;
            }
        } else {
            try wrapper.withdraw(reentryValue) {
                reentrySucceeded = true;
            } catch (bytes memory reason) {
                reentryError = reason;
            }
        }
    }

    function _attack(uint256 value) private {
        reentryAttempted = false;
        reentrySucceeded = false;
        reentryMinted = 0;
        delete reentryError;
        _attacking = true;
        wrapper.withdraw(value);
        _attacking = false;
    }
}
