// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";

/**
 * @title IWrappedNativeAsset
 * @dev An ERC-20 token backed one-to-one by a native asset of the contract chain, named by
 * {assetID}. {totalSupply} is the amount of the asset held through the wrapper.
 *
 * To wrap, send the asset to the wrapper and call {deposit} in one step: call the
 * `nativeAssetCall` precompile with the wrapper as `to`, the asset ID, the amount, and the
 * call data of `deposit()`. The precompile forwards the caller, so the wrapper credits the
 * sender. Asset sent to the wrapper without calling {deposit} is credited to the next
 * account that calls {deposit}.
 */
interface IWrappedNativeAsset is IERC20, IERC20Metadata {
    /**
     * @notice Emitted when `caller` deposits `amount` of the asset, minting as many tokens.
     * @param caller The account credited.
     * @param amount The amount of the asset deposited, and of tokens minted (may be 0).
     */
    event Deposit(address caller, uint256 amount);

    /**
     * @notice Emitted when `caller` burns `value` tokens and receives as much of the asset.
     * @param caller The account whose tokens were burned and that received the asset.
     * @param value The amount of tokens burned, and of the asset sent.
     */
    event Withdrawal(address caller, uint256 value);

    /**
     * @notice Returns the ID of the wrapped native asset (the `uint256` of its 32 bytes).
     */
    function assetID() external view returns (uint256);

    /**
     * @notice Credits the caller with every unit of the asset the wrapper holds beyond
     * {totalSupply}: mints that amount to the caller, so that {totalSupply} equals the
     * wrapper's asset balance again. Emits a {Deposit} event (also when the amount is 0).
     */
    function deposit() external;

    /**
     * @notice Burns `value` tokens of the caller and sends `value` of the asset to the caller
     * through the `nativeAssetCall` precompile with empty call data. Emits a {Withdrawal}
     * event.
     *
     * Requirements:
     *
     * - the caller must hold at least `value` tokens, otherwise reverts with the message
     *   "Insufficient funds for withdrawal".
     * - if the caller is a contract, it must accept a call with empty call data and value 0
     *   (a `receive` or `fallback` function), otherwise the withdrawal reverts.
     *
     * @param value The amount of tokens to burn and of the asset to receive.
     */
    function withdraw(uint256 value) external;
}
