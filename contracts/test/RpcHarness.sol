// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @dev Test harness for the engine's standard JSON-RPC behaviour: storage writes, indexed
 * and unindexed events, and the three kinds of failure a dApp decodes (reason strings,
 * custom errors, panics). For tests only.
 */
contract RpcHarness {
    /// @notice Value written by {store}; lives in storage slot 0.
    uint256 public stored;

    /// @notice Values written by {put}, by key.
    mapping(uint256 => uint256) public values;

    /// @notice Raised by {checkLimit} when `given` exceeds `limit`.
    error LimitExceeded(uint256 given, uint256 limit);

    /// @notice Raised by {failPlain}, an error without arguments.
    error Unauthorized();

    /**
     * @notice Emitted by {store}.
     * @param writer The caller.
     * @param value The value stored.
     */
    event Stored(address indexed writer, uint256 indexed value);

    /**
     * @notice Emitted by {put}.
     * @param writer The caller.
     * @param key The key written.
     * @param value The value written (not indexed).
     */
    event Put(address indexed writer, uint256 indexed key, uint256 value);

    /**
     * @notice Emitted by {ping}, with no indexed parameter.
     * @param n The number given.
     */
    event Ping(uint256 n);

    /// @notice Stores `value` in slot 0 and emits {Stored}.
    function store(uint256 value) external {
        stored = value;
        emit Stored(msg.sender, value);
    }

    /// @notice Writes `values[key] = value` and emits {Put}.
    function put(uint256 key, uint256 value) external {
        values[key] = value;
        emit Put(msg.sender, key, value);
    }

    /// @notice Emits {Ping} once per number in `ns`, in order.
    function ping(uint256[] calldata ns) external {
        for (uint256 i = 0; i < ns.length; i++) emit Ping(ns[i]);
    }

    /// @notice Writes `count` fresh storage slots: a gas-hungry transaction for estimates.
    function fill(uint256 start, uint256 count) external {
        for (uint256 i = 0; i < count; i++) values[start + i] = i + 1;
    }

    /// @notice Stores `value`, then reverts with `reason` if `fail` is set (the write is undone).
    function storeThenMaybeFail(uint256 value, bool fail, string calldata reason) external {
        stored = value;
        emit Stored(msg.sender, value);
        require(!fail, reason);
    }

    /// @notice Reverts with the reason "value too small" unless `x` is above 10.
    function requireAbove10(uint256 x) external pure returns (uint256) {
        require(x > 10, "value too small");
        return x;
    }

    /// @notice Reverts with {LimitExceeded} when `given` is above `limit`.
    function checkLimit(uint256 given, uint256 limit) external pure returns (uint256) {
        if (given > limit) revert LimitExceeded(given, limit);
        return given;
    }

    /// @notice Always reverts with {Unauthorized}.
    function failPlain() external pure {
        revert Unauthorized();
    }

    /// @notice Reverts without any data.
    function failEmpty() external pure {
        revert();
    }

    /// @notice `a / b`: panics with code 0x12 when `b` is zero.
    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }

    /// @notice Panics with code 0x01 (assert) when `ok` is false.
    function assertTrue(bool ok) external pure returns (bool) {
        assert(ok);
        return ok;
    }

    /// @notice Accepts native coin.
    function deposit() external payable {}
}
