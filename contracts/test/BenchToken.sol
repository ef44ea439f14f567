// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/**
 * @title BenchToken
 * @dev A plain ERC-20 used only by the benchmarks in `bench/`: the whole `supply` is minted
 * to the deployer, so transfers from the deployer can be measured right after deployment.
 */
contract BenchToken is ERC20 {
    /// @dev Mints `supply` (smallest units) to the deployer.
    constructor(uint256 supply) ERC20("Bench Token", "BENCH") {
        _mint(_msgSender(), supply);
    }
}
