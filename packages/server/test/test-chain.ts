import ganache from 'ganache';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { testTokenAbi, testTokenBytecode } from './erc20';
import { freePort } from './harness';

/** viem's description of the local test chain at `url`. */
export const chainOf = (url: string) => defineChain({ id: 1337, name: 'ganache', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } });

export interface TestChain {
  rpcUrl: string;
  /** The test token (test/erc20/TestToken.sol). */
  token: Address;
  close(): Promise<void>;
}

/**
 * A throwaway local chain (ganache, in this process, mining each transaction at once) with the
 * test token deployed by `ownerKey`, whose account holds ether for gas and the token's whole
 * `supply`; a transfer of the token to `blocked` reverts.
 */
export async function startTestChain(ownerKey: Hex, token: { decimals: number; blocked: Address; supply: bigint }): Promise<TestChain> {
  const port = await freePort();
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: 1337 },
    miner: { instamine: 'eager' },
    wallet: { accounts: [{ secretKey: ownerKey, balance: `0x${(10n ** 21n).toString(16)}` }] },
    // ganache's option types resolve to `undefined` under moduleResolution "bundler".
  } as never);
  await server.listen(port, '127.0.0.1');
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deployer = createWalletClient({ account: privateKeyToAccount(ownerKey), chain: chainOf(rpcUrl), transport: http(rpcUrl) });
  const hash = await deployer.deployContract({ abi: testTokenAbi, bytecode: testTokenBytecode, args: [token.decimals, token.blocked, token.supply] });
  const receipt = await createPublicClient({ chain: chainOf(rpcUrl), transport: http(rpcUrl) }).waitForTransactionReceipt({ hash });
  return { rpcUrl, token: getAddress(receipt.contractAddress!), close: () => server.close() };
}
