// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {NativeAssets} from "../NativeAssets.sol";
import "hardhat/console.sol";

/**
 * @dev Test contract: fails in each way a Solidity stack trace must explain (a reason, a custom
 * error, a panic, running out of gas, a call to an account without code, a bare require), and
 * from a caller, through nativeAssetCall and from a constructor.
 */
contract Failing {
    error Insufficient(uint256 available, uint256 required);

    uint256 public counter;

    function failWithReason() external pure {
        require(false, "You can't withdraw yet");
    }

    function failWithCustomError(uint256 required) external pure {
        revert Insufficient(1, required);
    }

    function overflow(uint256 value) external pure returns (uint256) {
        return value + type(uint256).max;
    }

    function failWithoutReason() external pure {
        require(false);
    }

    function burnGas() external {
        while (true) {
            counter++;
        }
    }

    function callNonContract(address target) external {
        Failing(target).burnGas();
    }
}

contract FailingCaller {
    function callFailing(Failing failing) external view {
        failing.failWithReason();
    }

    function assetCallFailing(Failing failing, uint256 assetId) external {
        NativeAssets.assetCall(address(failing), assetId, 0, abi.encodeCall(Failing.failWithReason, ()));
    }

    function catchFailure(Failing failing) external view {
        try failing.failWithReason() {} catch {}
        revert("caught, then failed");
    }
}

contract FailingConstructor {
    constructor() {
        revert("no deployment today");
    }
}

contract LoggingFailure {
    function logThenFail() external pure {
        console.log("about to fail");
        revert("failed after logging");
    }
}

contract CounterReader {
    function read(Failing failing) external view returns (uint256) {
        return failing.counter();
    }

    /** Reverts when called with less gas than it uses at the cap: an estimate's trials fail. */
    function readWithGasToSpare(Failing failing) external view returns (uint256) {
        require(gasleft() > 100_000, "more gas");
        return failing.counter();
    }
}
