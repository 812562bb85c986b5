import { networks, type Network } from "bitcoinjs-lib";

/** Networks as the config names them; `bitcoin` is accepted as an alias of mainnet. */
export type BitcoinNetworkName = "mainnet" | "bitcoin" | "testnet" | "regtest";

export function bitcoinNetwork(name: BitcoinNetworkName): Network {
  switch (name) {
    case "mainnet":
    case "bitcoin":
      return networks.bitcoin;
    case "testnet":
      return networks.testnet;
    case "regtest":
      return networks.regtest;
  }
}
