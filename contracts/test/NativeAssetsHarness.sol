// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IWrappedNativeAsset} from "../IWrappedNativeAsset.sol";
import {NativeAssets} from "../NativeAssets.sol";

/**
 * @dev Test harness: exposes {NativeAssets} and raw calls to the precompiles, and can hold
 * native assets and the native coin. For tests only.
 */
contract NativeAssetsHarness {
    /// @notice Accepts the native coin, and native assets sent with empty call data.
    receive() external payable {}

    /// @notice Returns {NativeAssets-assetBalance} of `account` for `assetID`.
    function assetBalance(address account, uint256 assetID) external view returns (uint256) {
        return NativeAssets.assetBalance(account, assetID);
    }

    /// @notice Runs {NativeAssets-assetCall} from this contract and returns its result.
    function assetCall(
        address to,
        uint256 assetID,
        uint256 amount,
        bytes calldata callData
    ) external returns (bytes memory) {
        return NativeAssets.assetCall(to, assetID, amount, callData);
    }

    /**
     * @notice Sends `amount` of the wrapper's asset from this contract to `wrapper` and calls
     * its `deposit()` in the same step, so the wrapper credits this contract.
     */
    function deposit(address wrapper, uint256 amount) external returns (bytes memory) {
        uint256 assetID = IWrappedNativeAsset(wrapper).assetID();
        return NativeAssets.assetCall(wrapper, assetID, amount, abi.encodeCall(IWrappedNativeAsset.deposit, ()));
    }

    /// @notice CALLs `target` with `data` and `msg.value`; returns the outcome without reverting.
    function rawCall(address target, bytes calldata data) external payable returns (bool ok, bytes memory ret) {
        (ok, ret) = target.call{value: msg.value}(data);
    }

    /// @notice CALLs `target` with `data` and `value` taken from this contract's own balance;
    /// returns the outcome without reverting (a value above the balance makes the call fail).
    function rawCallWithValue(address target, bytes calldata data, uint256 value) external returns (bool ok, bytes memory ret) {
        (ok, ret) = target.call{value: value}(data);
    }

    /// @notice STATICCALLs `target` with `data`; returns the outcome without reverting.
    function rawStaticCall(address target, bytes calldata data) external view returns (bool ok, bytes memory ret) {
        (ok, ret) = target.staticcall(data);
    }

    /**
     * @notice CALLs `target` with `data`, value 0 and at most `gasLimit` gas (the EVM caps
     * it at 63/64 of what is left). `gasUsed` is the gas left before the CALL minus the gas
     * left after it: the callee's consumption plus the CALL opcode's own cost (address
     * access, 100 warm or 2600 cold) and a few opcodes; no memory expansion is included.
     */
    function rawCallWithGas(
        address target,
        bytes memory data,
        uint256 gasLimit
    ) external returns (bool ok, bytes memory ret, uint256 gasUsed) {
        uint256 before = gasleft();
        assembly ("memory-safe") {
            ok := call(gasLimit, target, 0, add(data, 0x20), mload(data), 0, 0)
        }
        gasUsed = before - gasleft();
        ret = new bytes(_returnDataSize());
        assembly ("memory-safe") {
            returndatacopy(add(ret, 0x20), 0, mload(ret))
        }
    }

    function _returnDataSize() private pure returns (uint256 size) {
        assembly ("memory-safe") {
            size := returndatasize()
        }
    }
}
