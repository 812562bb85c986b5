/** What `solver localnet` and `solver demo` print once the localnet is up: where everything is. */
import { join } from "node:path";
import type { LocalnetDescriptor } from "../descriptor.js";
import { LOCALNET_DESCRIPTOR_FILE, LOCALNET_LOG_FILE, LOCALNET_PROFILE_FILE } from "./localnet-dir.js";

export function localnetSummary(descriptor: LocalnetDescriptor, dir: string, solverRunning: boolean): string {
  const label = (text: string) => `  ${text.padEnd(12)}`;
  const profile = join(dir, LOCALNET_PROFILE_FILE);
  const solver = descriptor.solver;
  return [
    `${label("service")}${descriptor.service.url}  (app id in the descriptor)`,
    `${label("descriptor")}${join(dir, LOCALNET_DESCRIPTOR_FILE)}`,
    ...descriptor.chains.map(
      (chain, i) =>
        `${label(i === 0 ? "chains" : "")}${chain.name} (chain id ${chain.chainId}) ${chain.rpcUrl}`,
    ),
    `${label("")}${descriptor.bitcoin.name} (bitcoin regtest) ${descriptor.bitcoin.rpcUrl}`,
    `${label("")}${descriptor.solana.name} (solana) ${descriptor.solana.rpcUrl}`,
    `${label("")}${descriptor.starknet.name} (starknet ${descriptor.starknet.chainId}) ${descriptor.starknet.rpcUrl}`,
    `${label("")}${descriptor.sui.name} (sui) ${descriptor.sui.rpcUrl}`,
    ...descriptor.users.map(
      (user, i) =>
        `${label(i === 0 ? "users" : "")}${user.address}  ${user.bitcoin.address}  ${user.solana.address}  ${user.starknet.address}  ${user.sui.address}`,
    ),
    `${label("")}funded with every test asset; keys in the descriptor (public test keys: localnet only)`,
    `${label("solver")}${solver.evmAddress}  ${solver.bitcoinAddress}  ${solver.solanaAddress}  ${solver.starknetAddress}  ${solver.suiAddress}`,
    `${label("")}quotes at ${solver.quoteUrl}`,
    solverRunning
      ? `${label("")}runs in this process; ops at ${solver.opsUrl}/health /metrics /status`
      : `${label("")}not started: run it with  npx solver run --config ${profile}`,
    `${label("log")}${join(dir, LOCALNET_LOG_FILE)}`,
    `${label("journal")}npx solver status --config ${profile}`,
  ].join("\n");
}
