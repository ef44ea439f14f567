// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @dev Test harness: a minimal proxy that DELEGATECALLs every call to its implementation and
 * returns what it returned, the pattern gas statistics recognise as a proxy. For tests only.
 */
contract ForwardingProxy {
    address private immutable implementation;

    constructor(address implementation_) {
        implementation = implementation_;
    }

    fallback() external payable {
        address target = implementation;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }
}
