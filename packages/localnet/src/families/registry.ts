/**
 * The local system's chain families, each in its own folder (families/<family>/: the local chain, its
 * setup, the user's wallet and demo swaps, and the service's watcher and relayer). Generic code looks a chain's family up
 * here instead of branching on its name; a new family adds a folder and a line below.
 */
import type { ResolvedAsset } from "../service/registry.js";
import { startBitcoinLocalnet, type BitcoinLocalnetOptions } from "./bitcoin/bitcoin-localnet.js";
import { startEvmLocalnet, type EvmLocalnetOptions } from "./evm/evm-localnet.js";
import { settledOrStopped, settledValue, type LocalnetStartContext } from "./local-chain-family.js";
import { startSolanaLocalnet, type SolanaLocalnetOptions } from "./solana/solana-localnet.js";
import { startStarknetLocalnet, type StarknetLocalnetOptions } from "./starknet/starknet-localnet.js";
import { startSuiLocalnet, type SuiLocalnetOptions } from "./sui/sui-localnet.js";
import { bitcoinUserFamily } from "./bitcoin/user-bitcoin-part.js";
import { evmUserFamily } from "./evm/user-evm.js";
import type { LocalDemoSwap, LocalUserContext } from "./local-user-family.js";
import { solanaUserFamily } from "./solana/user-solana-part.js";
import { starknetUserFamily } from "./starknet/user-starknet-part.js";
import { suiUserFamily } from "./sui/user-sui-part.js";
import type { LocalServiceBitcoinChainConfig } from "./bitcoin/service/bitcoin-config.js";
import { bitcoinServiceFamily } from "./bitcoin/service/bitcoin-family.js";
import type { LocalServiceEvmChainConfig } from "./evm/service/evm-config.js";
import { evmServiceFamily } from "./evm/service/evm-family.js";
import type { LocalFamilyName, LocalServiceFamily } from "./local-family.js";
import type { LocalServiceSolanaChainConfig } from "./solana/service/solana-config.js";
import { solanaServiceFamily } from "./solana/service/solana-family.js";
import type { LocalServiceStarknetChainConfig } from "./starknet/service/starknet-config.js";
import { starknetServiceFamily } from "./starknet/service/starknet-family.js";
import type { LocalServiceSuiChainConfig } from "./sui/service/sui-config.js";
import { suiServiceFamily } from "./sui/service/sui-family.js";

/** A chain of the local service's config, of any family. */
export type LocalServiceChainConfig =
  | LocalServiceEvmChainConfig
  | LocalServiceBitcoinChainConfig
  | LocalServiceSolanaChainConfig
  | LocalServiceStarknetChainConfig
  | LocalServiceSuiChainConfig;

/**
 * The solver's address per family: EVM address, x-only key (64 hex) in Bitcoin HTLCs, Solana address,
 * Starknet account address, Sui address.
 */
export interface LocalSolverAddresses {
  evm: string;
  bitcoin?: string;
  solana?: string;
  starknet?: string;
  sui?: string;
}

const SERVICE_FAMILIES: { [F in LocalFamilyName]: LocalServiceFamily<F> } = {
  evm: evmServiceFamily,
  bitcoin: bitcoinServiceFamily,
  solana: solanaServiceFamily,
  starknet: starknetServiceFamily,
  sui: suiServiceFamily,
};

/** A chain's family, or undefined for a family the local system does not have (a config error). */
export function serviceFamilyOf(
  chain: Pick<LocalServiceChainConfig, "family">,
): LocalServiceFamily<LocalFamilyName> | undefined {
  return (SERVICE_FAMILIES as Partial<Record<string, LocalServiceFamily<LocalFamilyName>>>)[chain.family];
}

/** Every family, for what each one checks of configuration that is not a chain's (the solver's addresses). */
export function allServiceFamilies(): readonly LocalServiceFamily<LocalFamilyName>[] {
  return Object.values(SERVICE_FAMILIES) as LocalServiceFamily<LocalFamilyName>[];
}

/** The family of a chain that passed validation: every configured chain has one. */
export function familyOfChain(chain: LocalServiceChainConfig): LocalServiceFamily<LocalFamilyName> {
  const family = serviceFamilyOf(chain);
  if (family === undefined) throw new Error(`chain ${chain.name}: family ${chain.family} is not supported`);
  return family;
}

/** The family of an asset's chain, typed for that asset. */
export function familyOfAsset(asset: ResolvedAsset): LocalServiceFamily<LocalFamilyName> {
  return familyOfChain(asset.chain);
}

/** What each family adds to the localnet's options. */
export type LocalnetFamilyOptions = EvmLocalnetOptions &
  BitcoinLocalnetOptions &
  SolanaLocalnetOptions &
  StarknetLocalnetOptions &
  SuiLocalnetOptions;

/** The families' chains, started and set up, merged into the localnet and its descriptor. */
export async function startLocalnetFamilies(context: LocalnetStartContext) {
  const results = await Promise.allSettled([
    startEvmLocalnet(context),
    startBitcoinLocalnet(context),
    startSolanaLocalnet(context),
    startStarknetLocalnet(context),
    startSuiLocalnet(context),
  ] as const);
  await settledOrStopped(results);
  const [evm, bitcoin, solana, starknet, sui] = [
    settledValue(results[0]),
    settledValue(results[1]),
    settledValue(results[2]),
    settledValue(results[3]),
    settledValue(results[4]),
  ];
  return {
    all: [evm, bitcoin, solana, starknet, sui] as const,
    handles: { ...evm.handles, ...bitcoin.handles, ...solana.handles, ...starknet.handles, ...sui.handles },
    descriptor: {
      ...evm.descriptor,
      ...bitcoin.descriptor,
      ...solana.descriptor,
      ...starknet.descriptor,
      ...sui.descriptor,
    },
    solverDescriptor: {
      ...evm.solverDescriptor,
      ...bitcoin.solverDescriptor,
      ...solana.solverDescriptor,
      ...starknet.solverDescriptor,
      ...sui.solverDescriptor,
    },
    userDescriptors: evm.userDescriptors.map((user, i) => ({
      ...user,
      ...bitcoin.userDescriptors[i]!,
      ...solana.userDescriptors[i]!,
      ...starknet.userDescriptors[i]!,
      ...sui.userDescriptors[i]!,
    })),
  };
}

export type StartedLocalnetFamilies = Awaited<ReturnType<typeof startLocalnetFamilies>>;

/** Each family's part of a user: the wallets the generic user asks, and the members tests call on it. */
export function localUserParts(context: LocalUserContext) {
  const evm = evmUserFamily.user(context);
  const bitcoin = bitcoinUserFamily.user(context);
  const solana = solanaUserFamily.user(context);
  const starknet = starknetUserFamily.user(context);
  const sui = suiUserFamily.user(context);
  return {
    wallets: [evm.wallet, bitcoin.wallet, solana.wallet, starknet.wallet, sui.wallet],
    members: { ...evm.members, ...bitcoin.members, ...solana.members, ...starknet.members, ...sui.members },
  };
}

/** Every family's members of a user (`user.bitcoin`, `user.initiateOnChain`, ...). */
export type LocalUserMembers = ReturnType<typeof localUserParts>["members"];

/** A demo swap, of any family. */
export type DemoSwap = LocalDemoSwap<LocalUserMembers>;

/** Every family's demo swaps, in the order of their positions. */
export function demoSwaps(): DemoSwap[] {
  const swaps: DemoSwap[] = [
    ...evmUserFamily.demoSwaps,
    ...bitcoinUserFamily.demoSwaps,
    ...solanaUserFamily.demoSwaps,
    ...starknetUserFamily.demoSwaps,
    ...suiUserFamily.demoSwaps,
  ];
  return swaps.sort((a, b) => a.position - b.position);
}
