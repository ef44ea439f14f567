// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {NativeAssets} from "../NativeAssets.sol";

/**
 * @dev Test harness: reaches the precompiles with STATICCALL. `nativeAssetCall` must fail
 * there; `nativeAssetBalance` must succeed. For tests only.
 */
contract StaticCaller {
    /// @notice STATICCALLs `nativeAssetCall` with the packed input; returns the outcome.
    function staticAssetCall(
        address to,
        uint256 assetID,
        uint256 amount,
        bytes calldata callData
    ) external view returns (bool ok, bytes memory ret) {
        (ok, ret) = NativeAssets.CALL_PRECOMPILE.staticcall(abi.encodePacked(to, assetID, amount, callData));
    }

    /// @notice STATICCALLs `nativeAssetBalance` with the packed input; returns the outcome.
    function staticAssetBalance(address account, uint256 assetID) external view returns (bool ok, bytes memory ret) {
        (ok, ret) = NativeAssets.BALANCE_PRECOMPILE.staticcall(abi.encodePacked(account, assetID));
    }

    /// @notice Returns {NativeAssets-assetBalance} (itself a STATICCALL) of `account`.
    function assetBalance(address account, uint256 assetID) external view returns (uint256) {
        return NativeAssets.assetBalance(account, assetID);
    }
}
