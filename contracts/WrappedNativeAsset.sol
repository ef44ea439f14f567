// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IWrappedNativeAsset} from "./IWrappedNativeAsset.sol";
import {NativeAssets} from "./NativeAssets.sol";

/**
 * @title WrappedNativeAsset
 * @dev ERC-20 wrapper of one native asset of the contract chain. See {IWrappedNativeAsset}.
 *
 * Invariant: at every point where control leaves this contract, its balance of {assetID}
 * is at least {totalSupply} (equal, unless someone sent the asset without calling
 * {deposit}). {deposit} restores equality; {withdraw} lowers both by the same amount.
 */
contract WrappedNativeAsset is ERC20, IWrappedNativeAsset {
    /// @inheritdoc IWrappedNativeAsset
    uint256 public immutable assetID;

    uint8 private immutable _decimals;

    /**
     * @dev Sets the token's `name_`, `symbol_` and `decimals_`, and the wrapped asset
     * `assetID_`. All are immutable. Decimals are not checked against the asset: the
     * contract chain does not rescale assets other than the native coin.
     */
    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 assetID_
    ) ERC20(name_, symbol_) {
        _decimals = decimals_;
        assetID = assetID_;
    }

    /**
     * @dev Returns the number of decimals given at construction.
     */
    function decimals() public view override(ERC20, IERC20Metadata) returns (uint8) {
        return _decimals;
    }

    /**
     * @inheritdoc IWrappedNativeAsset
     * @dev Reverts with {NativeAssets-NativeAssetBalanceFailed} if the balance precompile
     * is unavailable.
     */
    function deposit() external {
        // Cannot underflow: the wrapper's asset balance only decreases in {withdraw}, and
        // only after {totalSupply} has decreased by the same amount (see the invariant).
        uint256 amount = NativeAssets.assetBalance(address(this), assetID) - totalSupply();
        _mint(_msgSender(), amount);
        emit Deposit(_msgSender(), amount);
    }

    /**
     * @inheritdoc IWrappedNativeAsset
     * @dev The asset is sent with `nativeAssetCall` and empty call data, which runs the
     * receiver's `receive` (or `fallback`) function with value 0: a contract with neither
     * cannot withdraw. If that function reverts, its revert data is bubbled up; a failure
     * without revert data reverts with {NativeAssets-NativeAssetCallFailed}.
     *
     * Re-entrancy: tokens are burned before the asset is sent (checks-effects-interactions),
     * and the precompile moves the asset before calling the receiver. So, while the
     * receiver runs:
     *
     * - re-entering {withdraw} can only spend tokens the receiver still holds, as the
     *   burned ones are gone: no double spend;
     * - re-entering {deposit} sees asset balance and {totalSupply} both lowered by `value`,
     *   so it credits only asset sent without {deposit} before (which the next depositor
     *   is entitled to anyway), and mints 0 otherwise; it cannot underflow.
     *
     * The {Withdrawal} event is emitted after the transfer, as specified; events of a
     * re-entrant call therefore come before it.
     */
    function withdraw(uint256 value) external {
        address caller = _msgSender();
        require(balanceOf(caller) >= value, "Insufficient funds for withdrawal");
        _burn(caller, value);
        NativeAssets.assetCall(caller, assetID, value, "");
        emit Withdrawal(caller, value);
    }
}
