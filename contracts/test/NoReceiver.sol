// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IWrappedNativeAsset} from "../IWrappedNativeAsset.sol";

/**
 * @dev Test harness: a contract with neither `receive` nor `fallback`, so it cannot accept
 * native assets sent with empty call data; a withdrawal to it must revert. For tests only.
 * Give it tokens with an ERC-20 transfer.
 */
contract NoReceiver {
    /// @notice Calls `wrapper.withdraw(value)` as this contract.
    function withdraw(IWrappedNativeAsset wrapper, uint256 value) external {
        wrapper.withdraw(value);
    }
}
