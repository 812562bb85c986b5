/** The service's published example order from Starknet (gardenfi/docs api-reference/quickstart.mdx). */
export const PUBLISHED = {
  swapId: "61ea20c8abf2a327035c2bc1170b3d32a13b271f14ad5a3739f995ce9a54ebf",
  chainId: "SN_SEPOLIA",
  initiator: "0x00609190b1348bcc06da44d58c79709495c11a5a6f0b9e154e1209f2a17dd933",
  redeemer: "0x078f8ae98fe78b5df9d3755b5910864c028d5249b4af685eb45687b1b76a4205",
  timelock: 2880n,
  amount: 50000n,
  secretHash: "e7b213af79add7fb7457238fc65df61cb4dea13b3ae374f1b5c69538e5fcb98a",
};
