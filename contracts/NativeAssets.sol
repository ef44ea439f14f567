// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title NativeAssets
 * @dev Access to the native assets of the contract chain: besides the native coin, every
 * account holds a balance per 32-byte asset ID. Contracts reach those balances only through
 * two precompiled contracts, wrapped here:
 *
 * - `nativeAssetBalance` at {BALANCE_PRECOMPILE}: input `address (20 bytes) ++ assetID
 *   (32 bytes)`, exactly 52 bytes; output the balance as one 32-byte big-endian word.
 *   Allowed in static calls.
 * - `nativeAssetCall` at {CALL_PRECOMPILE}: input `to (20 bytes) ++ assetID (32 bytes) ++
 *   amount (32 bytes) ++ callData`, 84 + `callData.length` bytes. It atomically moves
 *   `amount` of `assetID` from the caller to `to`, then calls `to` with `callData` and value
 *   0. The caller is forwarded: `to` sees the contract that called the precompile as
 *   `msg.sender`, and already sees the moved balance. It returns the inner call's return
 *   data. It reverts in a static context.
 *
 * An asset ID is the `uint256` of its 32 bytes, big-endian (the cb58 form decoded).
 *
 * WARNING: On a chain without these precompiles (e.g. a plain EVM), a call to either
 * address succeeds with empty output. {assetBalance} then reverts with
 * {NativeAssetBalanceFailed}, but {assetCall} cannot tell this apart from a successful call
 * whose callee returned nothing, and returns empty bytes without moving anything.
 */
library NativeAssets {
    /// @dev Address of the `nativeAssetBalance` precompile.
    address internal constant BALANCE_PRECOMPILE = 0x0100000000000000000000000000000000000001;

    /// @dev Address of the `nativeAssetCall` precompile.
    address internal constant CALL_PRECOMPILE = 0x0100000000000000000000000000000000000002;

    /**
     * @dev The balance precompile failed or returned something other than one 32-byte word
     * for `account` and `assetID` (e.g. it is deprecated, or absent from the chain).
     */
    error NativeAssetBalanceFailed(address account, uint256 assetID);

    /**
     * @dev The call precompile failed without revert data while sending `amount` of
     * `assetID` to `to`: e.g. the caller's balance of the asset is below `amount`, the
     * precompile ran out of gas, is deprecated, or the callee failed without a reason
     * (a contract with neither `receive` nor `fallback` given empty call data).
     */
    error NativeAssetCallFailed(address to, uint256 assetID, uint256 amount);

    /**
     * @dev Returns the balance of `assetID` held by `account`.
     *
     * Requirements:
     *
     * - the balance precompile must succeed and return exactly 32 bytes; otherwise reverts
     *   with {NativeAssetBalanceFailed}.
     */
    function assetBalance(address account, uint256 assetID) internal view returns (uint256) {
        (bool success, bytes memory output) = BALANCE_PRECOMPILE.staticcall(abi.encodePacked(account, assetID));
        if (!success || output.length != 32) {
            revert NativeAssetBalanceFailed(account, assetID);
        }
        return abi.decode(output, (uint256));
    }

    /**
     * @dev Sends `amount` of `assetID` from this contract to `to` and calls `to` with
     * `callData` (value 0, `msg.sender` = this contract), atomically. Returns the return data
     * of that inner call.
     *
     * With empty `callData` the callee's `receive` (or `fallback`) function runs; a contract
     * with neither cannot receive native assets this way.
     *
     * All remaining gas (less the 1/64 the EVM keeps back) is forwarded. If this contract's
     * balance of the asset is below `amount`, the precompile fails without reverting and the
     * forwarded gas is consumed.
     *
     * Requirements:
     *
     * - must not be used in a static context (the precompile reverts there).
     * - if the call fails, its revert data is bubbled up unchanged, so the callee's reason
     *   or custom error reaches the caller; a failure without revert data reverts with
     *   {NativeAssetCallFailed}.
     */
    function assetCall(
        address to,
        uint256 assetID,
        uint256 amount,
        bytes memory callData
    ) internal returns (bytes memory) {
        (bool success, bytes memory returndata) = CALL_PRECOMPILE.call(
            abi.encodePacked(to, assetID, amount, callData)
        );
        if (!success) {
            if (returndata.length > 0) {
                // Re-throw the callee's revert data exactly as it was received.
                assembly ("memory-safe") {
                    revert(add(returndata, 0x20), mload(returndata))
                }
            }
            revert NativeAssetCallFailed(to, assetID, amount);
        }
        return returndata;
    }
}
