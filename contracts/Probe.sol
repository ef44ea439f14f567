// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Probe { function f() external pure returns (uint256) { return 1; } }
