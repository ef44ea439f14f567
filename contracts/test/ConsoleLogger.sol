// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "hardhat/console.sol";

/// @notice Test harness: prints through hardhat/console.sol, as a user's contract would.
contract ConsoleLogger {
    /// @notice Logs a string, a number and an address, then returns the number doubled.
    function greet(string calldata name, uint256 n) external view returns (uint256) {
        console.log("hello %s, n = %d", name, n);
        console.log(msg.sender);
        return n * 2;
    }
}
