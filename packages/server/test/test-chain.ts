import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import { createPublicClient, createTestClient, createWalletClient, defineChain, getAddress, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { testTokenAbi, testTokenBytecode } from './erc20';

/** viem's description of the local test chain at `url`. */
export const chainOf = (url: string) => defineChain({ id: 1337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } });

/** A viem test client of the local test chain at `url`: mines blocks, stops and starts mining, snapshots and reverts. */
export const testClientOf = (url: string) => createTestClient({ mode: 'hardhat', chain: chainOf(url), transport: http(url) });

export interface TestChain {
  rpcUrl: string;
  /** The test token (test/erc20/TestToken.sol). */
  token: Address;
  close(): Promise<void>;
}

/**
 * A throwaway local chain (Hardhat's simulated network, EDR, in this process, mining each
 * transaction at once) served over HTTP on 127.0.0.1, with the test token deployed by `ownerKey`,
 * whose account holds ether for gas and the token's whole `supply`; a transfer of the token to
 * `blocked` reverts.
 */
export async function startTestChain(ownerKey: Hex, token: { decimals: number; blocked: Address; supply: bigint }): Promise<TestChain> {
  // Used as a library, Hardhat sends usage analytics and error reports whenever stdout is a
  // terminal outside CI and no one has answered its CLI's consent question; a test never does.
  process.env.HARDHAT_DISABLE_TELEMETRY = 'true';
  const hre = await createHardhatRuntimeEnvironment({
    networks: {
      local: {
        type: 'edr-simulated',
        chainId: 1337,
        accounts: [{ privateKey: ownerKey, balance: 10n ** 21n }],
        mining: { auto: true, interval: 0 },
        // As a real node: a reverting transaction is accepted and mined with a failed receipt,
        // not refused at eth_sendRawTransaction.
        throwOnTransactionFailures: false,
      },
    },
  });
  // Port 0: a free one, chosen by the system.
  const server = await hre.network.createServer({ network: 'local' }, '127.0.0.1', 0);
  const { port } = await server.listen();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deployer = createWalletClient({ account: privateKeyToAccount(ownerKey), chain: chainOf(rpcUrl), transport: http(rpcUrl) });
  const hash = await deployer.deployContract({ abi: testTokenAbi, bytecode: testTokenBytecode, args: [token.decimals, token.blocked, token.supply] });
  const receipt = await createPublicClient({ chain: chainOf(rpcUrl), transport: http(rpcUrl) }).waitForTransactionReceipt({ hash });
  return { rpcUrl, token: getAddress(receipt.contractAddress!), close: () => server.close() };
}
