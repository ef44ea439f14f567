// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {NativeAssets} from "../NativeAssets.sol";

/**
 * @dev Test harness: calls the coverage address exactly as Hardhat 3's coverage instrumentation
 * does (EDR's `__NomicFoundationCoverage.sendHit`: a STATICCALL with a 32-byte tag), so the
 * engine's coverage probe can be tested without compiling for coverage. For tests only.
 */
contract CoverageHits {
    address private constant COVERAGE_ADDRESS = 0xc0bEc0BEc0BeC0bEC0beC0bEC0bEC0beC0beC0BE;

    uint256 public stored;

    constructor() {
        hit(100);
    }

    function hit(uint256 tag) internal view {
        address coverage = COVERAGE_ADDRESS;
        assembly {
            let ptr := mload(0x40)
            mstore(ptr, tag)
            pop(staticcall(gas(), coverage, ptr, 32, 0, 0))
        }
    }

    /// @notice Hits 1, then 2 for a value above 10 and 3 otherwise.
    function store(uint256 value) external {
        hit(1);
        stored = value;
        if (value > 10) hit(2);
        else hit(3);
    }

    /// @notice Hits 4 `times` times.
    function repeat(uint256 times) external view returns (uint256) {
        for (uint256 i = 0; i < times; i++) hit(4);
        return stored;
    }

    /// @notice Hits 5, then reverts.
    function failAfterHit() external view {
        hit(5);
        revert("after the hit");
    }

    /// @notice Clears the slot (a gas refund), hitting 6 after it.
    function clear() external {
        stored = 0;
        hit(6);
    }

    /// @notice RETURNDATASIZE right after a hit that follows a call returning `size` bytes (ABI-encoded).
    function returnDataAfterHit(uint256 size) external view returns (uint256 observed) {
        this.bytesOf(size);
        hit(7);
        assembly {
            observed := returndatasize()
        }
    }

    function bytesOf(uint256 size) external pure returns (bytes memory) {
        return new bytes(size);
    }

    /// @notice Forwards `amount` of the asset this contract holds to `to` through the nativeAssetCall precompile.
    function forward(address to, uint256 assetID, uint256 amount) external {
        hit(8);
        NativeAssets.assetCall(to, assetID, amount, "");
    }
}
