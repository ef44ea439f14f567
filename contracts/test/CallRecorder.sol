// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {NativeAssets} from "../NativeAssets.sol";

/**
 * @dev Test harness: a callee for `nativeAssetCall` that records what it saw. For tests only.
 */
contract CallRecorder {
    /// @notice Value returned by {recordAsset}, to check that return data passes through.
    uint256 public constant RECORD_RESULT = 42;

    /// @notice Code carried by {RecorderFailure} when {failCustom} reverts.
    uint256 public constant FAILURE_CODE = 7;

    /// @notice Caller seen by the last {recordAsset} or empty call.
    address public lastSender;
    /// @notice `msg.value` seen by the last {recordAsset}.
    uint256 public lastValue;
    /// @notice This contract's balance of the recorded asset seen by the last {recordAsset}.
    uint256 public lastAssetBalance;
    /// @notice Number of {recordAsset} calls.
    uint256 public recordCount;
    /// @notice Number of calls with empty call data.
    uint256 public emptyCalls;

    /// @notice Raised by {failCustom}.
    error RecorderFailure(uint256 code);

    /**
     * @notice Emitted by {recordAsset}.
     * @param sender The caller seen.
     * @param value The `msg.value` seen.
     * @param assetBalance This contract's balance of the asset at call time.
     */
    event Recorded(address sender, uint256 value, uint256 assetBalance);

    /**
     * @notice Emitted on a call with empty call data.
     * @param sender The caller seen.
     * @param value The `msg.value` seen.
     */
    event EmptyCall(address sender, uint256 value);

    /// @notice Counts calls with empty call data (e.g. `nativeAssetCall` without call data).
    receive() external payable {
        emptyCalls += 1;
        lastSender = msg.sender;
        emit EmptyCall(msg.sender, msg.value);
    }

    /**
     * @notice Records `msg.sender`, `msg.value` and this contract's balance of `assetID`,
     * and returns {RECORD_RESULT}.
     */
    function recordAsset(uint256 assetID) external payable returns (uint256) {
        uint256 balance = NativeAssets.assetBalance(address(this), assetID);
        lastSender = msg.sender;
        lastValue = msg.value;
        lastAssetBalance = balance;
        recordCount += 1;
        emit Recorded(msg.sender, msg.value, balance);
        return RECORD_RESULT;
    }

    /// @notice Reverts with `reason` as an `Error(string)`.
    function fail(string calldata reason) external pure {
        revert(reason);
    }

    /// @notice Reverts with `RecorderFailure(FAILURE_CODE)`.
    function failCustom() external pure {
        revert RecorderFailure(FAILURE_CODE);
    }

    /// @notice Fails with the INVALID opcode, which consumes all gas it was given.
    function burnAllGas() external pure {
        assembly ("memory-safe") {
            invalid()
        }
    }
}
