// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A minimal ERC20 (BEP20) for the wallet's chain tests: the deployer holds the supply, and a
/// transfer to the `blocked` address reverts (a withdrawal that fails on chain).
contract TestToken {
    string public constant name = "WhiteHub Coin (test)";
    string public constant symbol = "WHC";
    uint8 public immutable decimals;
    address public immutable blocked;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint8 decimals_, address blocked_, uint256 supply) {
        decimals = decimals_;
        blocked = blocked_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        require(allowance[from][msg.sender] >= value, "allowance");
        allowance[from][msg.sender] -= value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != blocked, "blocked recipient");
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
